/// The console's script and stylesheet, served by Belay beside the pages (their
/// Content-Security-Policy allows scripts, styles and requests from the page's own origin only).
enum ConsoleAssets {
    /// Asks for the door list's matching rows as one types, sends its forms without leaving the page, and
    /// polls the list's state so that check-ins made elsewhere (the kiosk, another host's
    /// laptop) show without a reload. Plain ES5, nothing from elsewhere; every page works without it.
    static let script = #"""
    "use strict";
    (function () {
      var body = document.body;
      function byId(id) { return document.getElementById(id); }

      // A chosen CSV file is read into the text area it names (without script, paste it).
      var files = document.querySelectorAll("input[type=file][data-into]");
      for (var f = 0; f < files.length; f += 1) {
        files[f].addEventListener("change", function (event) {
          var input = event.target;
          var target = byId(input.getAttribute("data-into"));
          if (!target || !input.files || !input.files[0] || !window.FileReader) { return; }
          var reader = new FileReader();
          reader.onload = function () { target.value = reader.result; };
          reader.readAsText(input.files[0]);
        });
      }

      var stateURL = body.getAttribute("data-state");
      var version = body.getAttribute("data-version") || "";
      // The rows shown: those matching the search, one page of them (as the server made the page).
      var view = { query: body.getAttribute("data-query") || "", page: body.getAttribute("data-page") || "1" };

      function showError(message) {
        var box = byId("door-error");
        if (!box) { return; }
        box.textContent = message || "";
        box.hidden = !message;
      }

      function viewURL() {
        var url = stateURL + "?page=" + encodeURIComponent(view.page);
        if (view.query) { url += "&q=" + encodeURIComponent(view.query); }
        return url;
      }

      // A state made for another view (a form's answer is made for the first page of all rows)
      // brings the counts; the rows of the view shown are asked for again.
      function apply(state, force) {
        if (state.error !== undefined) { showError(state.error); } else { showError(""); }
        var sameView = state.query === view.query && String(state.page) === String(view.page);
        if (state.version === version && sameView && !force) { return; }
        var counts = byId("counts");
        if (counts) { counts.textContent = state.counts; }
        if (!sameView) { load(); return; }
        version = state.version;
        var rows = byId("door-rows");
        // Made by the server with every value escaped, from the same code as the page.
        if (rows) { rows.innerHTML = state.rows_html; }
        var pager = byId("door-pager");
        if (pager) { pager.innerHTML = state.pager_html; }
        body.setAttribute("data-version", version);
      }

      function request(method, url, data, done) {
        var xhr = new XMLHttpRequest();
        xhr.open(method, url, true);
        xhr.setRequestHeader("Accept", "application/json");
        if (data) { xhr.setRequestHeader("Content-Type", "application/x-www-form-urlencoded"); }
        xhr.timeout = 10000;
        xhr.onload = function () {
          var answer = null;
          try { answer = JSON.parse(xhr.responseText); } catch (error) { answer = null; }
          done(xhr.status, answer);
        };
        xhr.onerror = function () { done(0, null); };
        xhr.ontimeout = function () { done(0, null); };
        xhr.send(data);
      }

      function load() {
        var asked = viewURL();
        request("GET", asked, null, function (status, answer) {
          if (status === 200 && answer && asked === viewURL()) {
            var keep = byId("door-error");
            var shown = keep && !keep.hidden ? keep.textContent : "";
            apply(answer, true);
            if (shown) { showError(shown); }
          }
        });
      }

      // Search as one types: the server filters (the list may hold more rows than a page shows).
      var search = byId("q");
      var typing = null;
      if (search && stateURL) {
        search.addEventListener("input", function () {
          if (typing) { clearTimeout(typing); }
          typing = setTimeout(function () {
            view = { query: search.value.trim(), page: "1" };
            load();
          }, 150);
        });
        if (search.form) {
          search.form.addEventListener("submit", function (event) {
            event.preventDefault();
            view = { query: search.value.trim(), page: "1" };
            load();
          });
        }
      }

      function encode(form, submitter) {
        var parts = [];
        for (var i = 0; i < form.elements.length; i += 1) {
          var field = form.elements[i];
          // A row's buttons belong to the form they name; only the one pressed is sent.
          if (!field.name || field.disabled || field.type === "submit") { continue; }
          parts.push(encodeURIComponent(field.name) + "=" + encodeURIComponent(field.value));
        }
        if (submitter && submitter.name) {
          parts.push(encodeURIComponent(submitter.name) + "=" + encodeURIComponent(submitter.value));
        }
        return parts.join("&");
      }

      // Door-list forms are sent in place; the answer is the list's new state.
      document.addEventListener("submit", function (event) {
        var form = event.target;
        if (!stateURL || !form.hasAttribute || !form.hasAttribute("data-inline")) { return; }
        event.preventDefault();
        var submitter = event.submitter;
        var button = submitter || form.querySelector("button");
        if (button) { button.disabled = true; }
        request("POST", form.getAttribute("action"), encode(form, submitter), function (status, answer) {
          if (button) { button.disabled = false; }
          if (answer && answer.rows_html !== undefined) {
            apply(answer, false);
            if (status < 300 && form.classList.contains("add")) { form.reset(); }
          } else if (status === 0) {
            showError(body.getAttribute("data-offline") || "Offline");
          } else {
            if (submitter && submitter.name) {
              var pressed = document.createElement("input");
              pressed.type = "hidden";
              pressed.name = submitter.name;
              pressed.value = submitter.value;
              form.appendChild(pressed);
            }
            form.submit();
          }
        });
      });

      function poll() {
        var asked = viewURL();
        request("GET", asked, null, function (status, answer) {
          if (status === 200 && answer && asked === viewURL()) {
            var keep = byId("door-error");
            var shown = keep && !keep.hidden ? keep.textContent : "";
            apply(answer, false);
            if (shown) { showError(shown); }
          }
          setTimeout(poll, 2000);
        });
      }
      if (stateURL) { setTimeout(poll, 2000); }
    })();

    """#

    /// Laid out for a laptop and for a phone at the front desk; contrast at least 4.5:1.
    static let stylesheet = """
    * { box-sizing: border-box; }
    [hidden] { display: none !important; }
    html { -webkit-text-size-adjust: 100%; }
    body.console {
      margin: 0; background: #f6f7f9; color: #1b1f24; line-height: 1.5;
      font-family: "Noto Sans", "NanumGothic", "Noto Sans CJK KR", "Noto Sans CJK JP", system-ui, sans-serif; font-size: 16px;
    }
    html:lang(ko) body { word-break: keep-all; }
    a { color: #0b57d0; }
    a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible {
      outline: 3px solid #f0a500; outline-offset: 2px;
    }
    .skip { position: absolute; left: -9999px; }
    .skip:focus { left: 8px; top: 8px; background: #fff; padding: 8px; z-index: 10; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    header.top {
      display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: center; padding: 10px 20px; background: #14213d; color: #fff;
    }
    header.top a { color: #fff; }
    header.top .club { margin: 0; font-weight: 700; }
    header.top .club a { text-decoration: none; }
    header.top nav ul { display: flex; flex-wrap: wrap; gap: 4px 16px; list-style: none; margin: 0; padding: 0; }
    header.top nav a { white-space: nowrap; }
    header.top nav a[aria-current] { font-weight: 700; text-decoration-thickness: 3px; }
    header.top .who { margin-left: auto; display: flex; gap: 10px; align-items: center; font-size: 14px; }
    main { max-width: 1080px; margin: 0 auto; padding: 20px; }
    h1 { font-size: 26px; margin: 8px 0 12px; overflow-wrap: anywhere; }
    h2 { font-size: 20px; margin: 20px 0 8px; }
    .heading { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; justify-content: space-between; }
    .narrow { max-width: 460px; margin: 24px auto; background: #fff; padding: 24px; border-radius: 12px; border: 1px solid #d5d9e0; }
    .sub { display: block; color: #4a5260; font-size: 14px; }
    p.sub { margin: 0 0 8px; }
    .field { display: flex; flex-direction: column; gap: 4px; margin: 0 0 14px; }
    .field label { font-weight: 600; }
    .hint { color: #4a5260; font-size: 14px; }
    .field-error { color: #b3261e; font-size: 14px; font-weight: 600; }
    input[type=text], input[type=email], input[type=url], input[type=search], input[type=number], input[type=datetime-local], input[type=time], input[type=file], select, textarea {
      font: inherit; padding: 10px 12px; border: 1px solid #8a93a2; border-radius: 8px; background: #fff; color: #1b1f24; width: 100%;
    }
    input[aria-invalid=true], select[aria-invalid=true] { border-color: #b3261e; border-width: 2px; }
    td.thumb { width: 80px; }
    td.thumb img, td.thumb .placeholder { display: block; width: 72px; height: 96px; object-fit: contain; }
    .cancel-rest select { max-width: 420px; }
    td.thumb .placeholder { border: 1px dashed #8a93a2; border-radius: 8px; }
    button, .button {
      font: inherit; font-weight: 600; display: inline-block; padding: 9px 16px; border-radius: 8px; border: 1px solid #0b57d0;
      background: #0b57d0; color: #fff; cursor: pointer; text-decoration: none; min-height: 44px;
    }
    button.secondary, .button.secondary { background: #fff; color: #0b57d0; }
    button.danger { background: #fff; color: #b3261e; border-color: #b3261e; }
    button.link { background: none; border: none; color: inherit; text-decoration: underline; padding: 0; min-height: 0; font-weight: 400; }
    button:disabled { opacity: .6; }
    .error { background: #fdecea; color: #8c1d18; border: 1px solid #e6b3af; padding: 10px 12px; border-radius: 8px; font-weight: 600; }
    .notice { background: #e7f4ec; color: #155c35; border: 1px solid #acd8bd; padding: 10px 12px; border-radius: 8px; }
    .tabs { display: flex; gap: 16px; margin: 0 0 12px; border-bottom: 1px solid #d5d9e0; }
    .tabs a { padding: 8px 2px; text-decoration: none; color: #1b1f24; }
    .tabs a[aria-current] { border-bottom: 3px solid #0b57d0; font-weight: 700; }
    .table-wrap { overflow-x: auto; background: #fff; border: 1px solid #d5d9e0; border-radius: 12px; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: 10px 12px; border-bottom: 1px solid #e6e9ee; vertical-align: middle; }
    thead th { font-size: 14px; color: #4a5260; background: #fafbfc; }
    tbody th { font-weight: 600; }
    .number { text-align: right; font-variant-numeric: tabular-nums; }
    .tag { display: inline-block; font-size: 13px; padding: 1px 8px; border-radius: 999px; background: #fdecea; color: #8c1d18; }
    .counts { font-size: 18px; font-weight: 700; margin: 8px 0 12px; font-variant-numeric: tabular-nums; }
    .search { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 12px 0; }
    .search label { font-weight: 600; }
    .search input { flex: 1 1 200px; width: auto; }
    .handle { color: #4a5260; font-weight: 400; font-size: 14px; }
    .status { display: inline-block; padding: 2px 10px; border-radius: 999px; font-size: 14px; background: #eef1f5; color: #1b1f24; }
    .status.checked_in { background: #e7f4ec; color: #155c35; }
    .status.waitlisted { background: #fff4d6; color: #6b4e00; }
    .status.failed { background: #fdecea; color: #8c1d18; }
    form.narrow-form { max-width: 640px; }
    td.answer { overflow-wrap: anywhere; max-width: 320px; font-size: 14px; }
    .row-actions { text-align: right; white-space: nowrap; }
    .row-actions form, .row-actions button { display: inline; margin-left: 6px; }
    .pager { display: flex; flex-wrap: wrap; gap: 16px; align-items: center; margin: 12px 0; }
    .pager:empty { display: none; }
    form.add { display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-end; margin: 16px 0; }
    form.add .field { flex: 1 1 240px; margin: 0; }
    .actions { display: flex; flex-wrap: wrap; gap: 8px; margin: 16px 0; }
    .kiosk-link { background: #fff; border: 1px solid #d5d9e0; border-radius: 12px; padding: 12px 16px; margin: 12px 0; }
    .kiosk-link a { overflow-wrap: anywhere; }
    .qr { width: 220px; background: #fff; line-height: 0; }
    .qr svg { width: 100%; height: auto; }
    .empty { color: #4a5260; }
    code.secret { display: block; margin: 4px 0 0; font-size: 18px; letter-spacing: .05em; overflow-wrap: anywhere; }
    ol.recovery-codes { columns: 2 160px; font-size: 18px; margin: 8px 0 16px; padding-left: 36px; }
    ol.recovery-codes li { margin: 0; padding: 2px 0; break-inside: avoid; }
    th .sub { font-weight: 400; }
    .notice.warn { background: #fff4d6; color: #6b4e00; border-color: #e8d08a; }
    fieldset.choices { border: 1px solid #d5d9e0; border-radius: 8px; padding: 8px 12px 12px; margin: 0 0 14px; background: #fff; }
    fieldset.choices legend { font-weight: 600; padding: 0 4px; }
    fieldset.choices .options { display: grid; grid-template-columns: repeat(auto-fill, minmax(210px, 1fr)); gap: 2px 12px; margin-top: 6px; }
    fieldset.choices label { display: flex; gap: 8px; align-items: center; min-height: 32px; font-family: "DejaVu Sans Mono", monospace; font-size: 14px; }
    fieldset.choices input { width: 18px; height: 18px; }
    dl.snapshot { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
    dl.snapshot dt { color: #4a5260; }
    dl.snapshot dd { margin: 0; overflow-wrap: anywhere; }
    textarea { font-family: "DejaVu Sans Mono", monospace; font-size: 14px; }
    tr.bad td { background: #fdecea; color: #8c1d18; }
    .problems, .circuit { columns: 2 240px; }
    .report { background: #fff; border: 1px solid #d5d9e0; border-radius: 12px; padding: 12px 16px; margin: 12px 0; }
    .report h2 { margin-top: 4px; }
    .report blockquote { margin: 8px 0; padding: 8px 12px; border-left: 4px solid #8a93a2; background: #f6f7f9; white-space: pre-wrap; overflow-wrap: anywhere; }
    form.act { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: flex-end; }
    form.act .error { flex: 1 1 100%; margin: 0; }
    form.act .field { margin: 0; flex: 1 1 180px; }
    .chart-row { display: flex; flex-wrap: wrap; gap: 20px; align-items: flex-start; }
    .chart-row figure { margin: 0; flex: 1 1 360px; background: #fff; border: 1px solid #d5d9e0; border-radius: 12px; padding: 12px; }
    .chart-row svg { width: 100%; height: auto; }
    .chart-row table { flex: 0 1 280px; width: auto; background: #fff; border: 1px solid #d5d9e0; }
    .chart-row figcaption { font-weight: 600; margin-bottom: 6px; }
    caption { text-align: left; font-weight: 600; padding: 6px 12px; }
    .heading .actions { margin: 0; }
    pre { background: #fff; border: 1px solid #d5d9e0; border-radius: 8px; padding: 12px; overflow-x: auto; font-size: 14px; }
    code { font-family: "Noto Sans Mono", "DejaVu Sans Mono", monospace; }
    .operation { background: #fff; border: 1px solid #d5d9e0; border-radius: 8px; margin: 6px 0; }
    .operation summary { padding: 8px 12px; cursor: pointer; }
    .operation .method { display: inline-block; min-width: 64px; font-weight: 700; font-family: "DejaVu Sans Mono", monospace; }
    .operation .detail { padding: 0 12px 8px; }
    @media (max-width: 640px) {
      main { padding: 12px; }
      header.top { padding: 10px 12px; }
      header.top .who { margin-left: 0; width: 100%; }
      h1 { font-size: 22px; }
      .narrow { margin: 8px 0; padding: 16px; }
      table.door thead { display: none; }
      table.door tr { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 8px; padding: 8px 10px; border-bottom: 1px solid #e6e9ee; }
      table.door th, table.door td { border: none; padding: 2px 0; }
      table.door .row-actions { margin-left: auto; }
    }

    """
}
