// Lab shell: reads the props, loads the wasm client when the lab nears the viewport, builds the tabs, language, link and share bar.
import { mountCalibration } from "./calibration";
import { loadClient, type TslabClient } from "./client";
import { applyI18n, lang, onLangChange, setLang, t, type Lang } from "./i18n";
import { labLink } from "./lab_link";
import { panels as registry } from "./panels";
import type { Panel } from "./panels/panel";
import { LabPropError, propsOf, type PanelId } from "./props";
import type { Scenario } from "./report";
import { createShareBar } from "./share_bar";
import { createStore, startingScenario } from "./state";
import { mountSummary } from "./summary";
import { fragmentParams, stateKey } from "./share";

/** Scrolls the tab bar sideways (never the page) so the tab is in view: on a phone the bar is one scrolling row. */
function revealTab(bar: HTMLElement, tab: HTMLElement): void {
  const b = bar.getBoundingClientRect(),
    r = tab.getBoundingClientRect();
  const left = r.left - b.left + bar.scrollLeft,
    right = left + r.width;
  if (left < bar.scrollLeft) bar.scrollLeft = left;
  else if (right > bar.scrollLeft + bar.clientWidth) bar.scrollLeft = right - bar.clientWidth;
}

type Tabs = { select(id: string): void; active(): string };

function buildTabs(
  uid: string,
  list: readonly Panel[],
  tabBar: HTMLElement,
  stage: HTMLElement,
  onSelect: () => void,
): Tabs & { entries: { tab: HTMLButtonElement; body: HTMLElement }[] } {
  const entries = list.map((panel, i) => {
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
    return { tab, body, index: i, id: panel.id };
  });
  let active = 0;
  const select = (i: number, focus: boolean) => {
    active = i;
    entries.forEach((e) => {
      const on = e.index === i;
      e.tab.setAttribute("aria-selected", String(on));
      e.tab.tabIndex = on ? 0 : -1;
      e.body.hidden = !on;
      if (on && focus) e.tab.focus({ preventScroll: true });
      if (on) revealTab(tabBar, e.tab);
    });
    onSelect();
  };
  entries.forEach((e) => e.tab.addEventListener("click", () => select(e.index, false)));
  // WAI-ARIA tabs pattern (automatic activation): arrows move to the next/previous tab, Home/End to the first/last, Tab moves into the panel.
  tabBar.addEventListener("keydown", (ev) => {
    const cur = entries.findIndex((e) => e.tab === document.activeElement);
    if (cur < 0) return;
    const n = entries.length;
    const next: Record<string, number> = { ArrowRight: (cur + 1) % n, ArrowLeft: (cur - 1 + n) % n, Home: 0, End: n - 1 };
    if (!(ev.key in next) || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    ev.preventDefault();
    select(next[ev.key], true);
  });
  return {
    entries,
    select: (id) =>
      select(
        Math.max(
          0,
          entries.findIndex((e) => e.id === id),
        ),
        false,
      ),
    active: () => entries[active].id,
  };
}

const langKey = "tslab.lang";

/** The reader's remembered choice, else the prop, else the page's lang attribute, else the browser's language. */
function initialLang(root: HTMLElement, prop: Lang | undefined): Lang {
  const known = (v: string | null | undefined): Lang | undefined =>
    !v ? undefined : /^zh\b/i.test(v) ? "zh-CN" : /^en\b/i.test(v) ? "en" : undefined;
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(langKey);
  } catch {
    // storage blocked (private mode, sandboxed frame): no remembered choice
  }
  return known(saved) ?? prop ?? known(root.parentElement?.closest<HTMLElement>("[lang]")?.lang) ?? known(navigator.language) ?? "zh-CN";
}

function rememberLang(l: Lang): void {
  try {
    localStorage.setItem(langKey, l);
  } catch {
    // not remembered where storage is blocked; the toggle still works
  }
}

/** The scenario a lab starts from: the prop's object, a model preset name on the lab's cluster, or the lesson's start. */
function startScenario(client: TslabClient, prop: Scenario | string | undefined): Scenario {
  if (prop === undefined) return structuredClone(startingScenario);
  if (typeof prop === "string") {
    const models = Object.keys(client.presets().models);
    if (!models.includes(prop)) throw new Error(`scenario: "${prop}" is not a model preset (${models.join(", ")})`);
    return { schema: "tslab/scenario@1", model: prop, cluster: startingScenario.cluster, parallel: {}, training: {} };
  }
  return { schema: "tslab/scenario@1", ...prop, parallel: prop.parallel ?? {}, training: prop.training ?? {} };
}

async function mountLab(root: HTMLElement, index: number): Promise<void> {
  const tabBar = root.querySelector<HTMLElement>("[data-tsl-tabs]")!;
  const stage = root.querySelector<HTMLElement>("[data-tsl-panels]")!;
  const status = root.querySelector<HTMLElement>("[data-tsl-status]")!;
  try {
    const props = propsOf(root);
    const client = await loadClient();
    const store = createStore(startScenario(client, props.scenario));
    const initial = store.scenario();
    const list = props.panels.map((id: PanelId, i) => {
      const panel = registry.find((p) => p.id === id);
      if (!panel) throw new LabPropError(`panels[${i}]`, `"${id}" is not registered in panels/index.ts`);
      return panel;
    });
    let link: ReturnType<typeof labLink> | undefined;
    const tabs = buildTabs(root.id, list, tabBar, stage, () => link?.changed());
    tabs.entries.forEach((e, i) => {
      list[i].mount(e.body, { client, store });
      mountSummary(e.body, list[i].headline);
    });
    mountCalibration(root, root.querySelector<HTMLElement>("[data-tsl-cal]")!, stage, client, store);
    link = labLink(index, stage, store, initial, props.start, tabs.active);
    const share = createShareBar(store, link.flush);
    stage.after(share.element);
    onLangChange(share.relabel);
    const follow = () => {
      const restored = link!.restore();
      tabs.select(restored.tab ?? props.start);
      status.hidden = !restored.error;
      if (restored.error) {
        delete status.dataset.i18n;
        status.textContent = t("share.linkError") + restored.error.message;
      }
    };
    follow();
    // A link to this lab on the same page (a companion page's "open the experiment"): the fragment changes, the lab follows it.
    window.addEventListener("hashchange", () => {
      if (!fragmentParams(location.hash).has(stateKey(index))) return;
      follow();
      root.scrollIntoView({ block: "start" });
    });
    root.dataset.ready = "true";
  } catch (e) {
    delete status.dataset.i18n;
    status.textContent = t(e instanceof LabPropError ? "lab.propError" : "lab.loadFailed") + (e instanceof Error ? e.message : String(e));
    root.dataset.ready = "error";
    throw e;
  }
  applyI18n(root);
}

/** Starts the lab's language handling at once (the shell's static text), the wasm only when the lab is about to be seen. */
function prepare(root: HTMLElement): void {
  const toggle = root.querySelector<HTMLButtonElement>("[data-tsl-lang]")!;
  // The button's name is its visible text (WCAG 2.5.3, label in name); the longer sentence describes it.
  const hint = root.querySelector<HTMLElement>("[data-tsl-lang-hint]")!;
  hint.id = `${root.id}-lang-hint`;
  toggle.setAttribute("aria-describedby", hint.id);
  toggle.addEventListener("click", () => {
    const next = lang() === "en" ? "zh-CN" : "en";
    rememberLang(next);
    setLang(next);
  });
  const sync = (l: Lang) => {
    root.lang = l;
    toggle.setAttribute("aria-pressed", String(l === "en"));
    toggle.lang = l === "en" ? "zh-CN" : "en"; // the label names the other language, in that language
    applyI18n(root);
  };
  onLangChange(sync);
  sync(lang());
}

/** How far ahead of the viewport a lab starts loading: about one screen, so it is ready when scrolled to. */
const loadMargin = "100% 0px";

export function mountLabs(): void {
  const roots = [...document.querySelectorAll<HTMLElement>("[data-tslab]")];
  roots.forEach((root, i) => {
    // Unique per lab: the first keeps "tsl" (tabs are #tsl-tab-<panel>), the next are tsl-2, tsl-3, ...
    if (!root.id) root.id = i === 0 ? "tsl" : `tsl-${i + 1}`;
  });
  // One language for the page (the dictionaries are shared): the first lab's props and the reader's choice decide it.
  if (roots.length) {
    let prop: Lang | undefined;
    try {
      prop = propsOf(roots[0]).lang;
    } catch {
      prop = undefined; // reported by mountLab
    }
    setLang(initialLang(roots[0], prop));
  }
  const linked = (i: number) => fragmentParams(location.hash).has(stateKey(i));
  roots.forEach((root, i) => {
    prepare(root);
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      void mountLab(root, i).then(() => {
        if (linked(i)) root.scrollIntoView({ block: "start" });
      });
    };
    // A link to this lab's state, or a browser without IntersectionObserver: load now.
    if (linked(i) || typeof IntersectionObserver === "undefined") return start();
    const io = new IntersectionObserver(
      (seen) => {
        if (!seen.some((e) => e.isIntersecting)) return;
        io.disconnect();
        start();
      },
      { rootMargin: loadMargin },
    );
    io.observe(root);
    // A same-page link to this lab before it came into view: load it now (mounting reads the link).
    window.addEventListener("hashchange", () => {
      if (!linked(i)) return;
      io.disconnect();
      start();
    });
  });
}
