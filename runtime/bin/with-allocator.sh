#!/bin/sh
# Runs the command it is given (the server: `node ... generated/main.ts`) with the C allocator that
# suits its store. Allocators read their settings only as a process starts, so only its start command
# can choose them; `exec` keeps one process, the one npm's signals reach.
#
# - On PostgreSQL (DATABASE_URL postgres://... or postgresql://...): jemalloc, where the machine has
#   it (Debian and Ubuntu: libjemalloc2; or JEMALLOC_PATH) and the environment has no LD_PRELOAD of
#   its own (set LD_PRELOAD, even empty, to keep glibc's malloc): preloaded, with MALLOC_CONF (unless
#   set) purging freed pages from a background thread within a second. The driver reads each large
#   row into buffers that interleave with everything else, and glibc's malloc keeps the freed middle
#   of its heap resident: tens of MiB after a burst of large rows, where jemalloc returns them.
# - Otherwise (SQLite, or no jemalloc): glibc's malloc, with MALLOC_MMAP_THRESHOLD_ (unless set):
#   every block of 128 KiB and more gets its own mapping, returned to the system when freed. On
#   SQLite a burst of large rows is returned without jemalloc, and the server spends less CPU per
#   request on glibc's malloc (docs/production.md). Preload jemalloc yourself (LD_PRELOAD) to have it.
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
# Whether the server's store is PostgreSQL, read from DATABASE_URL as the server reads it.
on_postgres() {
  case "${DATABASE_URL:-}" in
    postgres://* | postgresql://*) return 0 ;;
    *) return 1 ;;
  esac
}
jemalloc=
if [ -z "${LD_PRELOAD+set}" ] && on_postgres; then jemalloc=$(find_jemalloc); fi
if [ -n "$jemalloc" ]; then
  export LD_PRELOAD="$jemalloc"
  export MALLOC_CONF="${MALLOC_CONF:-background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0}"
else
  export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
fi
exec "$@"
