/* global window, document, Request */
// The stock monitor panel writes an action's answer to the browser's console only, so a refused
// DISPOSE looked like nothing happened. This shows a refusal's reason on screen, as an alert.
(() => {
  const show = (text) => {
    let box = document.getElementById("rsworld-refusal");
    if (box === null) {
      box = document.createElement("div");
      box.id = "rsworld-refusal";
      box.setAttribute("role", "alert");
      box.style.cssText =
        "position:fixed;top:0;left:0;right:0;z-index:99999;padding:12px 48px 12px 16px;background:#b71c1c;color:#fff;font:14px/1.4 system-ui,sans-serif";
      const text = document.createElement("span");
      const close = document.createElement("button");
      close.type = "button";
      close.textContent = "\u00d7";
      close.setAttribute("aria-label", "Dismiss");
      close.style.cssText = "position:absolute;right:10px;top:6px;font-size:22px;background:none;border:0;color:#fff;cursor:pointer";
      close.addEventListener("click", () => box.remove());
      box.append(text, close);
      document.body.append(box);
    }
    box.firstChild.textContent = text;
  };
  const original = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const res = await original(input, init);
    const url = input instanceof Request ? input.url : String(input);
    if (!res.ok && url.includes("/api/room/call")) {
      res
        .clone()
        .json()
        .then((body) => show(`Refused: ${body?.error?.message ?? res.statusText}`))
        .catch(() => show(`Refused (HTTP ${res.status})`));
    }
    return res;
  };
})();
