/** The page's title: `API reference v1`. */
export const docsTitle = (version: string) => `API reference ${version}`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The HTML of the docs page of one version. Every URL is relative to the page
 * (`/services/{v}/docs`), so it works behind any BASE_URL path; the script is a file of its own, so
 * a Content-Security-Policy without inline scripts still allows it.
 */
export function docsPageHtml(version: string): string {
  const title = escapeHtml(docsTitle(version));
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title>`,
    '<link rel="stylesheet" href="docs/swagger-ui.css">',
    '<link rel="icon" type="image/png" href="docs/favicon-32x32.png" sizes="32x32">',
    '</head>',
    '<body>',
    '<div id="swagger-ui"></div>',
    '<script src="docs/swagger-ui-bundle.js"></script>',
    '<script src="docs/init.js"></script>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * The script that starts Swagger UI on the version's document. `documentName` is the openapi
 * service's path below /services/{v}/ (`openapi`); the document is fetched with the page's own
 * credentials, so a browser that reaches the page reaches the document.
 */
export function docsInitScript(documentName: string): string {
  return [
    "'use strict';",
    'window.addEventListener("load", function () {',
    '  window.ui = SwaggerUIBundle({',
    `    url: new URL(${JSON.stringify(documentName)}, window.location.href).href,`,
    '    dom_id: "#swagger-ui",',
    '    deepLinking: true,',
    '    displayOperationId: true,',
    '    docExpansion: "list",',
    '  });',
    '});',
    '',
  ].join('\n');
}
