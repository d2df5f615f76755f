export { docsRoutes, docsPathOf, type DocsRoutesOptions } from './docs-routes.ts';
export { docsPageHtml, docsInitScript, docsTitle } from './docs-page.ts';
export { swaggerUiAsset, type DocsAsset } from './swagger-ui-assets.ts';
export { servedDocument, type DocsAccess } from './served-document.ts';
