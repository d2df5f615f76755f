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
    const drawn = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => ({
        id: block.id,
        summary: (block.querySelector('.opblock-summary') as HTMLElement | null)?.innerText ?? '',
      })),
    );
    for (const { id, summary } of drawn) seen.set(id.replaceAll('\\/', '/'), summary.replace(/\s+/g, ' ').trim());
    for (const heading of await page.locator('.opblock-tag').allInnerTexts())
      tagHeadings.add(heading.replace(/\s+/g, ' ').trim());
    const atBottom = await scrollDown(page);
    if (atBottom) break;
    // The virtual list draws the blocks that scrolled into view on the next frames.
    await pause(50);
  }
  return { operations: [...seen].map(([id, summary]) => ({ id, summary })), tagHeadings: [...tagHeadings] };
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
