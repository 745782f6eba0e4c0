"""A headless chromium driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ending in a NUL byte, chromium reads
fd 3 and writes fd 4), with Python's standard library only; for
tests/it_html.py.

Browser(): starts chromium in a fresh profile; page() opens a tab with
Runtime, Log, Network and Page enabled; every event is kept, so a test can
look for script errors, console errors and requests after the fact. Every
wait is bounded; close() kills chromium (its process group)."""
import base64
import json
import os
import queue
import shutil
import signal
import subprocess
import tempfile
import threading
import time

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


class CdpError(Exception):
    pass


class Browser:
    def __init__(self, timeout=30):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="rpcbench-chromium-")
        to_chrome_r, self._w = os.pipe()
        self._r, from_chrome_w = os.pipe()

        def fds():  # in the child: its fd 3 reads our messages, fd 4 writes its own
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)  # neither is 3 or 4 now
            while a in (3, 4) or b in (3, 4):
                a, b = os.dup(a), os.dup(b)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)
            os.setsid()

        argv = [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-sync",
                "--disable-background-networking", "--disable-component-update",
                "--disable-dev-shm-usage", "--mute-audio", "--hide-scrollbars",
                "--user-data-dir=" + self.profile, "--remote-debugging-pipe",
                "--window-size=1200,900", "about:blank"]
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=self.log,
                                     stderr=self.log, preexec_fn=fds, close_fds=True,
                                     pass_fds=(3, 4))  # kept open after fds() made them
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._next = 0
        self._replies = {}
        self._events = queue.Queue()
        self.events = []
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        buf = b""
        while True:
            try:
                chunk = os.read(self._r, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                with self._cond:
                    self._replies[None] = "closed"
                    self._cond.notify_all()
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                with self._cond:
                    if "id" in msg:
                        self._replies[msg["id"]] = msg
                    else:
                        self.events.append(msg)
                    self._cond.notify_all()

    def send(self, method, params=None, session=None, timeout=None):
        self._next += 1
        mid = self._next
        msg = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + (timeout or self.timeout)
        with self._cond:
            while mid not in self._replies:
                left = deadline - time.monotonic()
                if left <= 0 or None in self._replies:
                    raise CdpError("%s: no answer (%s)" % (method, self.stderr()[-400:]))
                self._cond.wait(left)
            reply = self._replies.pop(mid)
        if "error" in reply:
            raise CdpError("%s: %s" % (method, reply["error"]))
        return reply.get("result", {})

    def wait_event(self, method, session, since=0, timeout=None):
        """The first event `method` of session at index >= since."""
        deadline = time.monotonic() + (timeout or self.timeout)
        with self._cond:
            while True:
                for ev in self.events[since:]:
                    if ev.get("method") == method and ev.get("sessionId") == session:
                        return ev
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CdpError("no %s within the timeout" % method)
                self._cond.wait(left)

    def page(self):
        t = self.send("Target.createTarget", {"url": "about:blank"})
        s = self.send("Target.attachToTarget", {"targetId": t["targetId"],
                                                 "flatten": True})["sessionId"]
        p = Page(self, s)
        for domain in ("Runtime", "Log", "Network", "Page"):
            p.send(domain + ".enable")
        return p

    def stderr(self):
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def close(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(10)
        for fd in (self._w, self._r):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Page:
    def __init__(self, browser, session):
        self.b, self.session = browser, session

    def send(self, method, params=None):
        return self.b.send(method, params, self.session)

    def navigate(self, url):
        since = len(self.b.events)
        self.send("Page.navigate", {"url": url})
        self.b.wait_event("Page.loadEventFired", self.session, since)
        return since

    def eval(self, expr, wait=False):
        """expr's value; wait: expr is a promise, its result is the value."""
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True,
                                           "awaitPromise": wait})
        if "exceptionDetails" in r:
            raise CdpError("%s: %s" % (expr[:80], r["exceptionDetails"]))
        return r["result"].get("value")

    def my_events(self, since=0):
        return [e for e in self.b.events[since:] if e.get("sessionId") == self.session]

    def problems(self, page_url, since=0):
        """Script errors, console errors and requests other than the page
        itself and data: URLs, as lines."""
        out = []
        for e in self.my_events(since):
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                out.append("script error: %s" % p["exceptionDetails"])
            elif m == "Runtime.consoleAPICalled" and p.get("type") == "error":
                out.append("console error: %s" % p.get("args"))
            elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                out.append("log error: %s" % p["entry"].get("text"))
            elif m == "Network.requestWillBeSent":
                url = p["request"]["url"]
                if url != page_url and not url.startswith("data:"):
                    out.append("request: %s" % url)
        return out

    def hover(self, x, y):
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})

    def screenshot(self, path):
        m = self.send("Page.getLayoutMetrics")
        size = m.get("cssContentSize") or m["contentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
        r = self.send("Page.captureScreenshot", {"format": "png", "clip": clip,
                                                 "captureBeyondViewport": True})
        data = base64.b64decode(r["data"])
        with open(path, "wb") as f:
            f.write(data)
        return data

    def viewport(self, width, height=900):
        """Lays the page out at width x height CSS px, as a window that size."""
        self.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                         "deviceScaleFactor": 1,
                                                         "mobile": False})

    def capture(self, x, y, width, height):
        """A PNG of that page area (CSS px, from the document's top left)."""
        clip = {"x": x, "y": y, "width": width, "height": height, "scale": 1}
        r = self.send("Page.captureScreenshot", {"format": "png", "clip": clip,
                                                 "captureBeyondViewport": True})
        return base64.b64decode(r["data"])

    def pdf(self, path):
        r = self.send("Page.printToPDF", {"printBackground": True})
        data = base64.b64decode(r["data"])
        with open(path, "wb") as f:
            f.write(data)
        return data

    def dark(self, on):
        self.send("Emulation.setEmulatedMedia", {"features": [
            {"name": "prefers-color-scheme", "value": "dark" if on else "light"}]})
