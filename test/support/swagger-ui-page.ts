import type { Locator, Page } from 'playwright-core';

/** One operation's block as Swagger UI draws it: its element id and the text of its summary line. */
export interface RenderedOperation {
  /** `operations-<tag>-<operationId>` (Swagger UI writes a tag's / as \\/ in the id; given here as /). */
  readonly id: string;
  /** Method, path, summary and operationId, as the reader sees them. */
  readonly summary: string;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A tall window (a portrait monitor's worth of operations on each screen): the virtual list draws
 * whatever the window shows, so fewer scroll steps reach the end.
 */
const TALL_WINDOW = { width: 1280, height: 4000 };

/** Opens the page in a tall window once its first operation is drawn, scrolled to the top. */
async function fromTheTop(page: Page): Promise<void> {
  await page.setViewportSize(TALL_WINDOW);
  await page.locator('.opblock').first().waitFor({ timeout: 60_000 });
  await page.evaluate('window.scrollTo(0, 0)');
}

/** Scrolls three quarters of a screen down; says whether the page was already at its bottom. */
async function scrollDown(page: Page): Promise<boolean> {
  // Run in the page, given as text: these tests compile without the DOM's types.
  return page.evaluate<boolean>(`(() => {
    const bottom = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
    window.scrollBy(0, Math.floor(window.innerHeight * 0.75));
    return bottom;
  })()`);
}

/** What a reader scrolling through the docs page saw: each operation's block and each tag's heading. */
export interface ScrolledPage {
  readonly operations: RenderedOperation[];
  /** Each tag's heading text: its name and description. */
  readonly tagHeadings: string[];
}

/**
 * Swagger UI draws a long list of operations (150 tags and operations or more) virtually: only the
 * blocks near the viewport exist in the page, the rest appear as the reader scrolls. This scrolls the
 * docs page from top to bottom as a reader would and gathers every operation block drawn on the way.
 */
export async function scrollThroughOperations(page: Page): Promise<ScrolledPage> {
  const seen = new Map<string, string>();
  const tagHeadings = new Set<string>();
  await fromTheTop(page);
  for (let step = 0; step < 2_000; step += 1) {
    for (const { id, summary } of await settledOperations(page))
      seen.set(id.replaceAll('\\/', '/'), summary.replace(/\s+/g, ' ').trim());
    for (const heading of await page.locator('.opblock-tag').allInnerTexts())
      tagHeadings.add(heading.replace(/\s+/g, ' ').trim());
    const atBottom = await scrollDown(page);
    if (atBottom) break;
  }
  return { operations: [...seen].map(([id, summary]) => ({ id, summary })), tagHeadings: [...tagHeadings] };
}

/** The operation blocks in the page now: element id and summary text. */
async function drawnOperations(page: Page): Promise<RenderedOperation[]> {
  return page.$$eval('.opblock', (blocks) =>
    blocks.map((block) => ({
      id: block.id,
      summary: (block.querySelector('.opblock-summary') as HTMLElement | null)?.innerText ?? '',
    })),
  );
}

/**
 * The blocks drawn for the current scroll position, once the virtual list has finished drawing them:
 * it draws over the next frames, more of them on a slow machine, so this reads until two reads 100 ms
 * apart agree (for at most 10 s, then takes what is there).
 */
async function settledOperations(page: Page): Promise<RenderedOperation[]> {
  let drawn = await drawnOperations(page);
  for (let read = 0; read < 100; read += 1) {
    await pause(100);
    const again = await drawnOperations(page);
    const same =
      again.length === drawn.length &&
      again.every((block, index) => block.id === drawn[index]!.id && block.summary === drawn[index]!.summary);
    drawn = again;
    if (same) break;
  }
  return drawn;
}

/**
 * The block of one operation, scrolled to as a reader would reach it (the page's list is virtual, see
 * scrollThroughOperations), ready to be clicked.
 */
export async function scrollToOperation(page: Page, tag: string, operationId: string): Promise<Locator> {
  const operation = page.locator(`[id="operations-${tag.replaceAll('/', '\\\\/')}-${operationId}"]`);
  await fromTheTop(page);
  for (let step = 0; step < 2_000 && (await operation.count()) === 0; step += 1) {
    const atBottom = await scrollDown(page);
    if (atBottom) break;
    await pause(50);
  }
  await operation.scrollIntoViewIfNeeded();
  return operation;
}
