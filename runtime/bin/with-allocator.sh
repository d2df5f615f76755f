#!/bin/sh
# Runs the command it is given (the server: `node ... generated/main.ts`) with a C allocator that
# gives back to the system the memory a burst of large responses grew, once it is freed. Allocators
# read their settings only as a process starts, so only its start command can choose them; `exec`
# keeps one process, the one npm's signals reach.
#
# - jemalloc, where the machine has it (Debian and Ubuntu: libjemalloc2; or JEMALLOC_PATH) and the
#   environment has no LD_PRELOAD of its own (set LD_PRELOAD, even empty, to keep glibc's malloc):
#   preloaded, with MALLOC_CONF (unless set) purging freed pages from a background thread within a
#   second. glibc's malloc keeps the freed middle of its heap resident: about 60 MiB after a burst of
#   large PostgreSQL rows, where jemalloc returns it.
# - otherwise glibc's MALLOC_MMAP_THRESHOLD_ (unless set): every block of 128 KiB and more gets its own
#   mapping, returned to the system when freed, so fewer of the burst's buffers stay.
# musl and macOS ignore both settings.
set -eu
# The jemalloc to preload: JEMALLOC_PATH when set (and only it), else where Debian, Ubuntu and Fedora put it.
find_jemalloc() {
  if [ -n "${JEMALLOC_PATH:-}" ]; then
    if [ -r "$JEMALLOC_PATH" ]; then echo "$JEMALLOC_PATH"; fi
    return 0
  fi
  for candidate in "/usr/lib/$(uname -m)-linux-gnu/libjemalloc.so.2" /usr/lib64/libjemalloc.so.2; do
    if [ -r "$candidate" ]; then
      echo "$candidate"
      return 0
    fi
  done
}
jemalloc=
if [ -z "${LD_PRELOAD+set}" ]; then jemalloc=$(find_jemalloc); fi
if [ -n "$jemalloc" ]; then
  export LD_PRELOAD="$jemalloc"
  export MALLOC_CONF="${MALLOC_CONF:-background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0}"
else
  export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
fi
exec "$@"
