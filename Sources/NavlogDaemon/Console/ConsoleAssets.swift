/// The web console's files, embedded in the binary: no CDN, no network, nothing to install.
///
/// The page holds no inline script or style (its policy forbids both): its behaviour is
/// ``script`` (`/ui/console.js`) and its looks ``style`` (`/ui/console.css`). What the script
/// needs from the daemon it reads from the body's `data-` attributes.
enum ConsoleAssets {
    /// One served file.
    struct Asset: Sendable {
        let text: String
        let contentType: String
    }

    // MARK: - Pages

    /// The start of a page up to `</head>`: the style, an empty icon (no request for
    /// `/favicon.ico`), and `script` when given.
    private static func head(title: String, script: String?) -> String {
        var lines = [
            "<!DOCTYPE html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">", "<title>\(title)</title>",
            "<link rel=\"icon\" href=\"data:,\">", "<link rel=\"stylesheet\" href=\"/ui/console.css\">",
        ]
        if let script { lines.append("<script src=\"\(script)\" defer></script>") }
        return (lines + ["</head>"]).joined(separator: "\n")
    }

    /// The console's single page; `{{ALLOW_ACTIONS}}` and `{{TIMELINE_AFTER}}` are filled per request.
    static let page = """
        \(head(title: "navlogd console", script: "/ui/console.js"))
        <body data-allow-actions="{{ALLOW_ACTIONS}}" data-timeline-after="{{TIMELINE_AFTER}}">
        <header class="bar">
        <span class="brand">navlogd</span>
        <nav><a href="#/" id="nav-sessions">Sessions</a><a href="#/journeys" id="nav-journeys">Journeys</a></nav>
        <span id="status" class="status">connecting…</span>
        </header>
        <main>
        <section id="page-sessions" hidden>
        <h1>Live sessions</h1>
        <p class="note">Updated live from the event stream. Click a session to see its screen.</p>
        <table class="sessions"><thead><tr><th>Session</th><th>App</th><th>Run</th><th>Screen</th><th class="num">Idle</th><th class="num">Events</th><th>Last action</th></tr></thead>
        <tbody id="sessions-body"></tbody></table>
        <p id="sessions-empty" class="note">No live sessions.</p>
        </section>
        <section id="page-session" hidden>
        <p class="crumbs"><a href="#/">Sessions</a> › <span id="session-title"></span></p>
        <p id="session-meta" class="note"></p>
        <div class="split">
        <div class="device-column">
        <div id="containers" class="containers"></div>
        <div class="device"><div id="screen-name" class="screen-name"></div><div id="screen" class="screen"></div></div>
        <p id="action-note" class="note"></p>
        <p id="action-problem" class="problem" role="alert" hidden></p>
        </div>
        <div class="timeline-column"><h2>Timeline</h2><ol id="timeline" class="timeline"></ol></div>
        </div>
        </section>
        <section id="page-journeys" hidden>
        <h1>Journeys</h1>
        <div class="controls"><label for="window">Sessions started in the last</label>
        <select id="window"><option value="15m">15 minutes</option><option value="1h" selected>hour</option><option value="1d">day</option></select>
        <button id="refresh" type="button">Refresh</button><span id="report-status" class="note"></span></div>
        <iframe id="report" title="Journeys report" sandbox></iframe>
        </section>
        </main>
        </body>
        </html>

        """

    /// The login form; `{{PROBLEM}}` is filled per request.
    static let loginPage = """
        \(head(title: "navlogd console: log in", script: nil))
        <body>
        <header class="bar"><span class="brand">navlogd</span></header>
        <main class="login">
        <h1>Log in</h1>
        <p class="note">This navlogd requires its token (auth.token or auth.token_file in navlogd.json).</p>
        {{PROBLEM}}
        <form method="post" action="/ui/login">
        <label for="token">Token</label>
        <input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
        <button type="submit">Log in</button>
        </form>
        </main>
        </body>
        </html>

        """

    // MARK: - Style

    static let style = Asset(text: """
        :root{--ink:#1d2633;--muted:#5b6b82;--line:#d6dde8;--soft:#f3f6fa;--accent:#2563eb;--bad:#c0392b;--good:#1e7b4a}
        *{box-sizing:border-box}
        body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);background:#fff}
        .bar{display:flex;align-items:center;gap:24px;padding:10px 24px;background:#1d2633;color:#fff}
        .brand{font-weight:700;letter-spacing:.02em}
        .bar nav a{color:#c9d4e5;text-decoration:none;margin-right:16px;padding:4px 0}
        .bar nav a.active{color:#fff;border-bottom:2px solid #7aa7ff}
        .status{margin-left:auto;font-size:12px;color:#c9d4e5}.status.down{color:#ffb4a8}
        main{padding:16px 24px;max-width:1400px;margin:0 auto}
        h1{font-size:20px;margin:8px 0}h2{font-size:16px;margin:0 0 8px}
        .note{color:var(--muted)}.problem{color:var(--bad);font-weight:600}
        table.sessions{border-collapse:collapse;width:100%}
        .sessions th,.sessions td{padding:6px 10px;border-bottom:1px solid #e4e9f0;text-align:left;vertical-align:top}
        .sessions tbody tr{cursor:pointer}.sessions tbody tr:hover{background:var(--soft)}
        .sessions td{max-width:340px;overflow-wrap:anywhere}
        .num,.sessions .num{text-align:right;font-variant-numeric:tabular-nums}
        .sessions tr.ended{opacity:.45}
        .crumbs a{color:var(--accent)}
        .split{display:flex;gap:24px;align-items:flex-start;flex-wrap:wrap}
        .device-column{flex:0 0 380px;max-width:100%}
        .timeline-column{flex:1 1 480px;min-width:0}
        .containers{font-size:13px;margin-bottom:8px}
        .containers .row{margin:2px 0}.containers b{color:var(--muted);font-weight:600;margin-right:6px}
        .crumb{display:inline-block;background:var(--soft);border-radius:4px;padding:0 6px;margin:1px 2px}
        .crumb.top{background:#dbe7ff}
        .tabs{display:flex;gap:4px;flex-wrap:wrap}
        .tab{border:1px solid var(--line);background:#fff;border-radius:4px;padding:2px 8px;font:inherit}
        .tab.selected{background:var(--accent);color:#fff;border-color:var(--accent)}
        .device{border:2px solid #1d2633;border-radius:18px;padding:12px;min-height:420px;background:#fbfcfe}
        .screen-name{font-weight:700;border-bottom:1px solid var(--line);padding-bottom:6px;margin-bottom:8px;overflow-wrap:anywhere}
        .screen{overflow-wrap:anywhere}
        .el-group{display:flex;flex-direction:column;gap:6px}
        .el-group .el-group{flex-direction:row;flex-wrap:wrap}
        .el-text{margin:0}
        .el-button,.el-item{font:inherit;text-align:left;border:1px solid var(--line);background:#fff;border-radius:8px;padding:6px 10px;color:var(--accent);max-width:100%;overflow-wrap:anywhere}
        .el-button:enabled:hover,.el-item:enabled:hover{background:#eef3fb;cursor:pointer}
        .el-button:disabled,.el-item:disabled{color:var(--ink)}
        .el-list{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:4px}
        .el-item{width:100%}.el-item .detail{display:block;color:var(--muted);font-size:12px}
        .el-field{display:flex;flex-direction:column;gap:2px}.el-field input{font:inherit;padding:5px 8px;border:1px solid var(--line);border-radius:6px}
        .el-field .private{font-size:11px;color:var(--muted)}
        .el-toggle{display:flex;gap:8px;align-items:center}
        .el-spinner{color:var(--muted);font-style:italic}
        .el-image{color:var(--muted)}
        .timeline{list-style:none;margin:0;padding:0;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;max-height:70vh;overflow:auto;border:1px solid var(--line);border-radius:6px}
        .timeline li{padding:3px 8px;border-bottom:1px solid #eef1f5;white-space:pre-wrap;overflow-wrap:anywhere}
        .timeline li.fresh{background:#fff8d6}
        .timeline li.skipped{color:var(--muted);font-style:italic}
        .timeline .del{color:var(--bad)}.timeline .ins{color:var(--good)}
        .controls{display:flex;gap:10px;align-items:center;margin-bottom:10px}
        .controls select,.controls button,.login button,.login input{font:inherit;padding:4px 10px}
        #report{width:100%;height:calc(100vh - 190px);min-height:480px;border:1px solid var(--line);border-radius:6px}
        .login{max-width:420px}.login form{display:flex;flex-direction:column;gap:8px}
        """, contentType: "text/css; charset=utf-8")

    /// The script, in ``ConsoleScript``.
    static let script = Asset(text: ConsoleScript.text, contentType: "text/javascript; charset=utf-8")
}
