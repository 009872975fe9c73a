/// The kiosk's script and stylesheet, served by Belay beside the page (the page's
/// Content-Security-Policy allows scripts, styles and requests from its own origin only).
extension KioskDocument {
    /// Polls the state, redraws in place, and keeps the countdown bar moving between polls.
    /// Plain ES5 with nothing from elsewhere, so an older tablet's browser runs it too.
    static let script = #"""
    "use strict";
    (function () {
      var body = document.body;
      var stateURL = body.getAttribute("data-state");
      if (!stateURL) { return; }
      function byId(id) { return document.getElementById(id); }
      function show(id, shown) { var node = byId(id); if (node) { node.hidden = !shown; } }
      var stepMilliseconds = 30000;
      var deadline = 0;
      var failures = 0;

      function drawBar() {
        var bar = byId("bar");
        if (!bar) { return; }
        var left = Math.max(0, deadline - Date.now());
        bar.style.transform = "scaleX(" + Math.min(1, left / stepMilliseconds).toFixed(4) + ")";
        // The last seconds of a code: a phone that reads it now still gets one more step.
        bar.classList.toggle("ending", left < 5000);
      }

      function gone(problem) {
        body.setAttribute("data-status", "gone");
        byId("notice-title").textContent = problem.title || "";
        byId("notice-detail").textContent = problem.detail || "";
        show("live", false);
        show("notice", true);
      }

      function render(state) {
        body.setAttribute("data-status", state.status);
        show("offline", false);
        byId("count").textContent = state.count_text;
        var open = state.status === "open";
        show("qr-box", open);
        show("code", open);
        show("bar-track", open);
        show("waiting", !open);
        show("hint", open);
        if (!open) {
          byId("waiting").textContent = state.opens_text || "";
          return;
        }
        var code = byId("code");
        if (code.getAttribute("data-code") !== state.code) {
          byId("qr").setAttribute("viewBox", "0 0 " + state.qr.side + " " + state.qr.side);
          byId("qr-modules").setAttribute("d", state.qr.path);
          code.textContent = state.code_display;
          code.setAttribute("data-code", state.code);
        }
        stepMilliseconds = Math.max(1, state.step_seconds) * 1000;
        deadline = Date.now() + state.seconds_left * 1000;
        drawBar();
      }

      function poll() {
        var request = new XMLHttpRequest();
        request.open("GET", stateURL, true);
        request.setRequestHeader("Accept", "application/json");
        request.timeout = 10000;
        request.onload = function () {
          var answer = null;
          try { answer = JSON.parse(request.responseText); } catch (error) { answer = null; }
          if (request.status === 200 && answer) {
            failures = 0;
            render(answer);
            setTimeout(poll, answer.refresh_after_ms || 2000);
          } else if ((request.status === 404 || request.status === 410) && answer) {
            gone(answer);
          } else {
            retry();
          }
        };
        request.onerror = retry;
        request.ontimeout = retry;
        request.send();
      }

      function retry() {
        failures += 1;
        show("offline", true);
        setTimeout(poll, Math.min(15000, 1000 * failures));
      }

      // Keeps the tablet's screen on where the browser allows it.
      function stayAwake() {
        if (navigator.wakeLock && document.visibilityState === "visible") {
          navigator.wakeLock.request("screen").catch(function () {});
        }
      }
      document.addEventListener("visibilitychange", stayAwake);
      stayAwake();

      var code = byId("code");
      if (code && code.getAttribute("data-code")) {
        deadline = Date.now() + parseFloat(code.getAttribute("data-seconds-left") || "0") * 1000;
        stepMilliseconds = parseFloat(code.getAttribute("data-step-seconds") || "30") * 1000;
      }
      drawBar();
      setInterval(drawBar, 250);
      setTimeout(poll, parseInt(body.getAttribute("data-refresh-after-ms") || "2000", 10));
    })();

    """#

    /// Landscape on a tablet (the QR code left, the meetup right), stacked on a phone.
    static let stylesheet = """
    * { box-sizing: border-box; }
    [hidden] { display: none !important; }
    html, body { margin: 0; height: 100%; }
    html:lang(ko) body { word-break: keep-all; }
    body.kiosk {
      background: #10141b; color: #f4f6fa;
      font-family: "Noto Sans", "NanumGothic", "Noto Sans CJK KR", "Noto Sans CJK JP", system-ui, sans-serif;
      overflow: hidden;
    }
    .screen {
      height: 100vh; display: flex; flex-direction: row; align-items: center; justify-content: center;
      gap: 5vw; padding: 4vh 5vw;
    }
    .scan { flex: 0 0 auto; width: min(66vh, 48vw); display: flex; flex-direction: column; align-items: stretch; }
    .qr-box { background: #fff; border-radius: 2.2vh; padding: 1vh; line-height: 0; }
    .qr-box svg { width: 100%; height: auto; display: block; }
    .code {
      margin: 2.2vh 0 1.6vh; text-align: center; font-size: min(10vh, 7.5vw); font-weight: 700; line-height: 1;
      letter-spacing: .08em; padding-left: .08em; font-variant-numeric: tabular-nums;
    }
    .bar-track { height: 1.2vh; min-height: 8px; border-radius: 999px; background: #2a3140; overflow: hidden; }
    .bar { height: 100%; width: 100%; background: #6ee7a8; transform-origin: left center; transition: transform .25s linear, background-color .5s; }
    .bar.ending { background: #f0c674; }
    .waiting {
      margin: 0; padding: 8vh 3vw; border: 2px dashed #3a4354; border-radius: 2.2vh; text-align: center;
      font-size: min(5.5vh, 4.5vw); font-weight: 600; line-height: 1.3;
    }
    .about { flex: 1 1 0; min-width: 0; max-width: 40vw; }
    .club { margin: 0 0 1vh; color: #8d96a5; font-size: min(2.8vh, 3.6vw); letter-spacing: .04em; }
    .about h1 { margin: 0 0 1.5vh; font-size: min(6vh, 5vw); line-height: 1.15; overflow-wrap: anywhere; }
    .place { margin: 0; font-size: min(3.6vh, 3.4vw); font-weight: 600; overflow-wrap: anywhere; }
    .time { margin: .8vh 0 4vh; color: #b8c0cc; font-size: min(3vh, 3vw); }
    .count {
      display: inline-block; margin: 0 0 3vh; padding: 1.2vh 2.4vh; border-radius: 999px; background: #1f6f4a;
      font-size: min(4.4vh, 4vw); font-weight: 700; font-variant-numeric: tabular-nums;
    }
    .hint { margin: 0; color: #dfe4ec; font-size: min(2.8vh, 3.2vw); line-height: 1.45; }
    .offline { margin: 2vh 0 0; color: #f0c674; font-size: min(2.6vh, 3vw); }
    .notice { height: 100vh; display: flex; flex-direction: column; align-items: center; justify-content: center; padding: 6vw; text-align: center; }
    .notice h1 { margin: 0 0 2vh; font-size: min(6vh, 7vw); }
    .notice p { margin: 0 0 2vh; max-width: 40em; color: #b8c0cc; font-size: min(3.2vh, 4.4vw); line-height: 1.45; }
    .notice .link-code { color: #f4f6fa; font-weight: 700; font-variant-numeric: tabular-nums; }
    .notice .club { margin-top: 3vh; color: #8d96a5; }
    .apps { display: flex; gap: 12px; justify-content: center; flex-wrap: wrap; margin: 1vh 0 2vh; }
    .store { color: #10141b; background: #f4f6fa; text-decoration: none; padding: 10px 16px; border-radius: 10px; font-weight: 600; }
    @media (max-aspect-ratio: 1/1) {
      body.kiosk { overflow: auto; }
      .screen { height: auto; min-height: 100vh; flex-direction: column-reverse; justify-content: center; gap: 3vh; padding: 4vh 6vw; }
      .scan { width: min(88vw, 52vh); }
      .code { font-size: min(6.5vh, 13vw); }
      .about { flex: 0 0 auto; max-width: none; width: 100%; text-align: center; }
      .club { font-size: 3.4vw; }
      .about h1 { font-size: min(4vh, 7.5vw); margin-bottom: 1vh; }
      .place { font-size: min(2.6vh, 4.6vw); }
      .time { margin: .6vh 0 1.6vh; font-size: min(2.2vh, 3.8vw); }
      .count { margin: 0 0 1.2vh; font-size: min(2.6vh, 4.8vw); }
      .hint { font-size: min(1.9vh, 3.5vw); }
      .waiting { font-size: min(3.6vh, 6vw); }
    }

    """
}
