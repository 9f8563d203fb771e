/* global window, SwaggerUIBundle -- a browser script: Swagger UI's bundle, loaded before it, defines SwaggerUIBundle. */
// Renders the server's own OpenAPI document; every asset comes from this server (no CDN).
window.ui = SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  // Try-it-out calls the server the page came from, with the bearer token typed into "Authorize".
  tryItOutEnabled: false,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
