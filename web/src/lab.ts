// Lab shell: loads the wasm client once, builds the tab bar from the panel registry, language toggle.
import { mountCalibration } from "./calibration";
import { loadClient } from "./client";
import { applyI18n, lang, onLangChange, setLang, t } from "./i18n";
import { panels } from "./panels";

function buildTabs(root: HTMLElement, tabBar: HTMLElement, stage: HTMLElement): { tab: HTMLButtonElement; body: HTMLElement }[] {
  const uid = root.id || "tsl";
  const entries = panels.map((panel, i) => {
    const tab = document.createElement("button");
    tab.type = "button";
    tab.className = "tsl-tab";
    tab.id = `${uid}-tab-${panel.id}`;
    tab.setAttribute("role", "tab");
    tab.dataset.i18n = panel.titleKey;
    const body = document.createElement("section");
    body.className = "tsl-panel";
    body.id = `${uid}-panel-${panel.id}`;
    body.dataset.panel = panel.id;
    body.setAttribute("role", "tabpanel");
    body.setAttribute("aria-labelledby", tab.id);
    tab.setAttribute("aria-controls", body.id);
    tabBar.append(tab);
    stage.append(body);
    return { tab, body, index: i };
  });
  const select = (i: number, focus: boolean) =>
    entries.forEach((e) => {
      const on = e.index === i;
      e.tab.setAttribute("aria-selected", String(on));
      e.tab.tabIndex = on ? 0 : -1;
      e.body.hidden = !on;
      if (on && focus) e.tab.focus();
    });
  entries.forEach((e) => e.tab.addEventListener("click", () => select(e.index, false)));
  // WAI-ARIA tabs pattern: arrows move between tabs, Tab moves into the panel.
  tabBar.addEventListener("keydown", (ev) => {
    const cur = entries.findIndex((e) => e.tab === document.activeElement);
    if (cur < 0) return;
    const step = ev.key === "ArrowRight" ? 1 : ev.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    ev.preventDefault();
    select((cur + step + entries.length) % entries.length, true);
  });
  select(0, false);
  return entries;
}

async function mountLab(root: HTMLElement): Promise<void> {
  const tabBar = root.querySelector<HTMLElement>("[data-tsl-tabs]")!;
  const stage = root.querySelector<HTMLElement>("[data-tsl-panels]")!;
  const status = root.querySelector<HTMLElement>("[data-tsl-status]")!;
  const toggle = root.querySelector<HTMLButtonElement>("[data-tsl-lang]")!;
  toggle.addEventListener("click", () => setLang(lang() === "en" ? "zh-CN" : "en"));
  onLangChange((l) => {
    root.lang = l;
    toggle.setAttribute("aria-pressed", String(l === "en"));
    applyI18n(root);
  });
  try {
    const client = await loadClient();
    const entries = buildTabs(root, tabBar, stage);
    entries.forEach((e, i) => panels[i].mount(e.body, { client }));
    mountCalibration(root, root.querySelector<HTMLElement>("[data-tsl-cal]")!, stage, client);
    status.hidden = true;
    root.dataset.ready = "true";
  } catch (e) {
    delete status.dataset.i18n;
    status.textContent = t("lab.loadFailed") + (e instanceof Error ? e.message : String(e));
    root.dataset.ready = "error";
    throw e;
  }
  applyI18n(root);
}

export function mountLabs(): void {
  for (const root of document.querySelectorAll<HTMLElement>("[data-tslab]")) void mountLab(root);
}
