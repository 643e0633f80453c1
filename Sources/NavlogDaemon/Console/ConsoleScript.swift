/// The web console's script (`/ui/console.js`): three pages in one, chosen by the URL's
/// fragment (`#/`, `#/sessions/ID`, `#/journeys`).
///
/// Every text that comes from an app or a session (screen names, element texts, values,
/// timeline lines) is put in with `textContent` or as a form value, never parsed as HTML, so
/// an app's `<script>` shows as text. The script talks to the daemon only: `/v1/sessions`,
/// `/v1/events` (Server-Sent Events), `/v1/sessions/{id}/actions`, and `/ui/api/…`.
enum ConsoleScript {
    static let text = #"""
        "use strict";
        (() => {
          const allowsActions = document.body.dataset.allowActions === "true";
          const timelineAfter = document.body.dataset.timelineAfter || "";
          const byID = (id) => document.getElementById(id);
          /** Creates an element with a class and a text, set as text. */
          function make(tag, className, text) {
            const node = document.createElement(tag);
            if (className) node.className = className;
            if (text !== undefined && text !== null) node.textContent = String(text);
            return node;
          }
          function setStatus(text, isDown) {
            const status = byID("status");
            status.textContent = text;
            status.classList.toggle("down", Boolean(isDown));
          }
          /** GETs JSON from the daemon; a 401 means the login cookie is gone: reload to log in. */
          async function getJSON(path) {
            const response = await fetch(path, {credentials: "same-origin", headers: {Accept: "application/json"}});
            if (response.status === 401) { location.reload(); throw new Error("logged out"); }
            const body = await response.json();
            if (!response.ok) { const error = new Error(body.detail || response.statusText); error.status = response.status; throw error; }
            return body;
          }
          function formatIdle(seconds) {
            if (seconds < 60) return seconds + " s";
            if (seconds < 3600) return Math.floor(seconds / 60) + " min " + (seconds % 60) + " s";
            return Math.floor(seconds / 3600) + " h " + Math.floor((seconds % 3600) / 60) + " min";
          }
          /** Calls `run` at most once per `delay` ms however often it is asked, and once more after a busy run. */
          function throttled(run, delay) {
            let timer = null, running = false, again = false;
            async function go() {
              timer = null;
              if (running) { again = true; return; }
              running = true;
              try { await run(); } finally { running = false; if (again) { again = false; ask(); } }
            }
            function ask() { if (timer === null) timer = setTimeout(go, delay); }
            ask.cancel = () => { if (timer !== null) clearTimeout(timer); timer = null; };
            return ask;
          }

          // MARK: - The sessions page

          function sessionsPage() {
            byID("page-sessions").hidden = false;
            let sessions = [], fetchedAt = performance.now();
            function draw() {
              const elapsed = Math.floor((performance.now() - fetchedAt) / 1000);
              const rows = sessions.map((session) => {
                const row = make("tr");
                row.dataset.session = session.id;
                const link = make("a", null, session.id);
                link.href = "#/sessions/" + encodeURIComponent(session.id);
                const cells = [link, session.app, session.run, session.screen ?? "—", formatIdle(session.idle_seconds + elapsed),
                               session.events, session.last_action ?? "—"];
                cells.forEach((value, index) => {
                  const cell = make("td", index === 4 || index === 5 ? "num" : null);
                  if (value instanceof Node) cell.append(value); else cell.textContent = String(value);
                  row.append(cell);
                });
                row.addEventListener("click", () => { location.hash = link.getAttribute("href"); });
                return row;
              });
              byID("sessions-body").replaceChildren(...rows);
              byID("sessions-empty").hidden = sessions.length > 0;
            }
            const refresh = throttled(async () => {
              try {
                sessions = (await getJSON("/v1/sessions")).sessions;
                fetchedAt = performance.now();
                setStatus("live", false);
              } catch (error) {
                setStatus("daemon unreachable: " + error.message, true);
              }
              draw();
            }, 100);
            const kinds = "session.start,session.end,action,deeplink,screen.push,screen.pop,screen.present,screen.dismiss,tab.select";
            const source = new EventSource("/v1/events?format=sse&kind=" + kinds);
            source.addEventListener("event", refresh);
            source.addEventListener("dropped", refresh);
            source.onopen = () => { setStatus("live", false); refresh(); };
            source.onerror = () => setStatus("reconnecting…", true);
            refresh();
            // Idle times tick, and event counts of sessions that only render catch up.
            const ticker = setInterval(draw, 1000);
            const poll = setInterval(refresh, 5000);
            return () => { source.close(); refresh.cancel(); clearInterval(ticker); clearInterval(poll); };
          }

          // MARK: - The session page

          function sessionPage(id) {
            byID("page-session").hidden = false;
            byID("session-title").textContent = id;
            byID("session-meta").textContent = "";
            byID("screen-name").textContent = "";
            byID("screen").replaceChildren();
            byID("containers").replaceChildren();
            byID("timeline").replaceChildren();
            byID("action-note").textContent = allowsActions
              ? "Actions are allowed (ui.allow_actions): click a button or item, press Enter in a field."
              : "Read only: actions are off (ui.allow_actions is false).";
            showProblem(null);
            const seen = new Set();
            const openedAt = performance.now();
            let ended = false;

            function showProblem(text) {
              const problem = byID("action-problem");
              problem.hidden = text === null;
              problem.textContent = text ?? "";
            }
            async function act(command) {
              if (!allowsActions || ended) return;
              try {
                const response = await fetch("/v1/sessions/" + encodeURIComponent(id) + "/actions", {
                  method: "POST", credentials: "same-origin", headers: {"Content-Type": "application/json"},
                  body: JSON.stringify(command)});
                if (response.ok) showProblem(null);
                else showProblem(((await response.json().catch(() => ({}))).detail) || ("HTTP " + response.status));
              } catch (error) {
                showProblem(error.message);
              }
              loadScreen();
            }
            const loadScreen = throttled(async () => {
              try {
                const session = await getJSON("/ui/api/sessions/" + encodeURIComponent(id));
                byID("session-meta").textContent = "app " + session.app;
                drawState(session.state, act);
                setStatus("live", false);
              } catch (error) {
                if (error.status === 404) { ended = true; byID("session-meta").textContent = "This session has ended."; }
                else setStatus("daemon unreachable: " + error.message, true);
              }
            }, 250);

            /** Notes events the stream skipped (more than max_rate a second): the journal has them. */
            function skip(notice) {
              const item = make("li", "skipped", "… " + notice.count + " events not shown here; the journal has them");
              const timeline = byID("timeline");
              timeline.append(item);
              while (timeline.childElementCount > 1000) timeline.firstElementChild.remove();
              timeline.scrollTop = timeline.scrollHeight;
            }

            function append(event) {
              if (seen.has(event.session_seq)) return;
              seen.add(event.session_seq);
              const lines = String(event.text ?? event.kind).split("\n");
              // Events of the first second are the session's past: only later ones are marked new.
              const item = make("li", performance.now() - openedAt > 1000 ? "fresh" : null);
              item.dataset.kind = event.kind;
              item.append(make("div", "line", lines[0].trim()));
              for (const line of lines.slice(1)) {
                const text = line.trim();
                item.append(make("div", text.startsWith("- ") ? "del" : text.startsWith("+ ") ? "ins" : "line", text));
              }
              const timeline = byID("timeline");
              timeline.append(item);
              setTimeout(() => item.classList.remove("fresh"), 1500);
              while (timeline.childElementCount > 1000) timeline.firstElementChild.remove();
              timeline.scrollTop = timeline.scrollHeight;
              if (event.kind === "session.end") { ended = true; byID("session-meta").textContent = "This session has ended."; }
            }
            // A person reads a few events a second: past 50 the daemon skips them, and says so.
            let query = "/v1/events?format=sse&text=true&max_rate=50&session=" + encodeURIComponent(id);
            if (timelineAfter) query += "&after=" + encodeURIComponent(timelineAfter);
            const source = new EventSource(query);
            source.addEventListener("event", (message) => { append(JSON.parse(message.data)); loadScreen(); });
            source.addEventListener("skipped", (message) => { skip(JSON.parse(message.data)); loadScreen(); });
            source.onerror = () => setStatus("reconnecting…", true);
            loadScreen();
            return () => { source.close(); loadScreen.cancel(); };
          }

          /** Draws the containers around the screen and the screen's element tree. */
          function drawState(state, act) {
            const window = state.window, rows = [];
            function row(label, ...content) {
              const line = make("div", "row");
              line.append(make("b", null, label), ...content);
              rows.push(line);
            }
            function crumbs(screens) {
              return screens.map((screen, index) => make("span", index === screens.length - 1 ? "crumb top" : "crumb", screen));
            }
            function describe(container, prefix) {
              if (container.kind === "tabs") {
                const bar = make("span", "tabs");
                for (const tab of container.tabs ?? []) {
                  const button = make("button", tab.title === container.selected_tab ? "tab selected" : "tab", tab.title);
                  button.type = "button";
                  button.disabled = !allowsActions;
                  button.addEventListener("click", () => act({type: "select_tab", tab: tab.title}));
                  bar.append(button);
                }
                row(prefix + "Tabs", bar);
                const selected = (container.tabs ?? []).find((tab) => tab.title === container.selected_tab);
                if (selected) describe(selected.stack, prefix);
              } else if (container.kind === "stack") {
                row(prefix + "Navigation stack", ...crumbs(container.screens));
              } else {
                row(prefix + "Screen", ...crumbs(container.screens));
              }
            }
            if (window.root) describe(window.root, "");
            for (const modal of window.modals) describe(modal.content, "Modal (" + modal.style + (modal.over ? " over " + modal.over : "") + ") ");
            if (allowsActions) {
              const controls = make("span");
              const back = make("button", "tab", "← Back");
              back.type = "button";
              back.addEventListener("click", () => act({type: "back"}));
              controls.append(back);
              if (window.modals.length > 0) {
                const dismiss = make("button", "tab", "Dismiss");
                dismiss.type = "button";
                dismiss.addEventListener("click", () => act({type: "dismiss"}));
                controls.append(dismiss);
              }
              row("Navigate", controls);
            }
            byID("containers").replaceChildren(...rows);
            byID("screen-name").textContent = state.visible ? state.visible.id : "(no screen)";
            byID("screen").replaceChildren(...(state.visible ? [render(state.visible.elements, act)] : []));
          }

          /** One element of the tree as HTML: the app's texts as text, its values as values. */
          function render(element, act) {
            const children = (element.children ?? []).map((child) => render(child, act));
            switch (element.role) {
              case "group": { const node = make("div", "el-group"); node.append(...children); return node; }
              case "text": return make("p", "el-text", [element.text, element.detail].filter((part) => part != null).join(" — "));
              case "button": {
                const button = make("button", "el-button", element.text ?? element.id);
                button.type = "button";
                button.dataset.element = element.id;
                button.disabled = !allowsActions;
                button.addEventListener("click", () => act({element: element.id}));
                return button;
              }
              case "list": {
                const list = make("ul", "el-list");
                for (const child of children) { const item = make("li"); item.append(child); list.append(item); }
                return list;
              }
              case "item": {
                const button = make("button", "el-item", element.text ?? element.id);
                button.type = "button";
                button.dataset.element = element.id;
                if (element.detail != null) button.append(make("span", "detail", element.detail));
                button.disabled = !allowsActions;
                button.addEventListener("click", () => act({element: element.id}));
                return button;
              }
              case "text_field": {
                const field = make("label", "el-field");
                const input = make("input");
                input.type = "text";
                input.value = element.value ?? "";
                input.placeholder = element.text ?? "";
                input.dataset.element = element.id;
                input.readOnly = !allowsActions;
                input.addEventListener("keydown", (key) => { if (key.key === "Enter") act({element: element.id, value: input.value}); });
                field.append(make("span", null, element.text ?? element.id), input);
                if (element.is_private) field.append(make("span", "private", "private: shown as the journal stores it"));
                return field;
              }
              case "toggle": {
                const label = make("label", "el-toggle");
                const box = make("input");
                box.type = "checkbox";
                box.checked = Boolean(element.is_on);
                box.disabled = !allowsActions;
                box.dataset.element = element.id;
                box.addEventListener("change", () => act({element: element.id, value: box.checked}));
                label.append(box, make("span", null, element.text ?? element.id));
                return label;
              }
              case "spinner": return make("span", "el-spinner", element.is_on ? "Loading…" : "");
              case "image": return make("span", "el-image", "[image " + (element.text ?? "") + "]");
              default: { const node = make("div", null, element.role); node.append(...children); return node; }
            }
          }

          // MARK: - The journeys page

          function journeysPage() {
            byID("page-journeys").hidden = false;
            const frame = byID("report"), status = byID("report-status"), choice = byID("window");
            function load() {
              status.textContent = "rendering…";
              frame.src = "/ui/api/report?window=" + encodeURIComponent(choice.value) + "&at=" + Date.now();
            }
            const loaded = () => { status.textContent = "rendered at " + new Date().toLocaleTimeString(); };
            frame.addEventListener("load", loaded);
            byID("refresh").addEventListener("click", load);
            choice.addEventListener("change", load);
            load();
            return () => {
              frame.removeEventListener("load", loaded);
              byID("refresh").removeEventListener("click", load);
              choice.removeEventListener("change", load);
            };
          }

          // MARK: - Routing

          let stop = null;
          function route() {
            if (stop) stop();
            for (const page of ["page-sessions", "page-session", "page-journeys"]) byID(page).hidden = true;
            const hash = location.hash || "#/";
            const session = hash.match(/^#\/sessions\/(.+)$/);
            byID("nav-sessions").classList.toggle("active", hash === "#/" || session !== null);
            byID("nav-journeys").classList.toggle("active", hash === "#/journeys");
            if (session) stop = sessionPage(decodeURIComponent(session[1]));
            else if (hash === "#/journeys") stop = journeysPage();
            else stop = sessionsPage();
          }
          window.addEventListener("hashchange", route);
          route();
        })();

        """#
}
