#!/usr/bin/env python3
"""Keypress to updated screen in `sift -i` (Docs/Interactive.md, Responsiveness).

    python3 Benchmarks/interactive.py SIFT FILE|@VIEW RECORDS [QUERY] [EXPECTED]

Starts `SIFT -i '' FILE` (or `SIFT -i @VIEW`) on a pseudo-terminal (100x30), waits for `RECORDS records`, then:
  echo   a key typed into the query line while nothing runs: time until its character is drawn;
  query  QUERY typed a key at a time (40 ms apart, like fast typing): time from its last key
         until the bar shows EXPECTED (the count; the screen's pause after typing included);
  cpu    the processor time sift spent from the query's first key to its count (all threads);
  busy   a key typed while that query's run is under way: time until it is drawn.
Then, with QUERY's records listed (Docs/Interactive.md, Marking and export):
  right  `→` in the list: time until the scrolled header (`‹`) is drawn;
  page   `Enter`: time until the record's page (`Back`) is drawn;
  export `e`, a file name, `Enter`: time until `Exported` is drawn (QUERY's records written as
         CSV), beside the wall time of `SIFT QUERY FILE -o csv > f` (one-shot), and their ratio.
Each is measured 5 times; the median and the worst are printed, in milliseconds.
"""
import filecmp, os, select, shutil, statistics, subprocess, sys, tempfile, time

import pty_screen


def start(sift, path):
    # `@VIEW` runs a view of the views file (SIFT_CONFIG); else a FILE.
    return pty_screen.start([sift, "-i", path] if path.startswith("@") else [sift, "-i", "", path])


def read_until(fd, text, timeout=60.0):
    """Reads until `text` appears in what arrives; returns the time it did."""
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            seen += os.read(fd, 1 << 16)
            if text.encode() in seen:
                return time.monotonic()
    raise SystemExit(f"timed out waiting for {text!r}")


def cpu_seconds(pid):
    """User and system time of the process so far (Linux /proc), in seconds."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def drain(fd, quiet=0.3):
    while select.select([fd], [], [], quiet)[0]:
        os.read(fd, 1 << 16)


def main():
    sift, path, records = sys.argv[1:4]
    query = sys.argv[4] if len(sys.argv) > 4 else "status:received"
    expected = sys.argv[5] if len(sys.argv) > 5 else " of " + records + " records"
    echo, typed, cpu, busy = [], [], [], []
    for _ in range(5):
        pid, fd = start(sift, path)
        read_until(fd, records + " records")
        drain(fd)
        os.write(fd, b"/")
        drain(fd)
        sent = time.monotonic()
        os.write(fd, b"x")
        echo.append(read_until(fd, "\x1b[0mx") - sent)  # the query line after its prompt
        os.write(fd, b"\x7f")
        drain(fd)
        before = cpu_seconds(pid)
        for ch in query:
            os.write(fd, ch.encode())
            last = time.monotonic()
            time.sleep(0.04)
        typed.append(read_until(fd, expected) - last)
        cpu.append(cpu_seconds(pid) - before)
        drain(fd)
        # A new query starts a run; a key typed 20 ms later must not wait for it.
        os.write(fd, b" x")
        time.sleep(0.15)
        os.write(fd, b"y")
        sent = time.monotonic()
        busy.append(read_until(fd, query + " xy") - sent)
        drain(fd)
        os.write(fd, b"\x1bq")
        os.waitpid(pid, 0)
        os.close(fd)
    right, page, export, one_shot = [], [], [], []
    folder = tempfile.mkdtemp(prefix="sift-bench-")
    target = os.path.join(folder, "export.csv")
    for _ in range(5):
        pid, fd = start(sift, path)
        read_until(fd, records + " records")
        os.write(fd, b"/" + query.encode() + b"\x1b")
        read_until(fd, expected)
        drain(fd)
        sent = time.monotonic()
        os.write(fd, b"\x1b[C")
        right.append(read_until(fd, "‹") - sent)
        drain(fd)
        sent = time.monotonic()
        os.write(fd, b"\r")
        page.append(read_until(fd, "Back") - sent)
        os.write(fd, b"\x1b")
        drain(fd)
        os.write(fd, b"e")
        read_until(fd, "Export ")
        drain(fd)
        if os.path.exists(target):
            os.remove(target)
        sent = time.monotonic()
        os.write(fd, b"\x15" + target.encode() + b"\r")
        export.append(read_until(fd, "Exported", timeout=300) - sent)
        drain(fd)
        os.write(fd, b"q")
        os.waitpid(pid, 0)
        os.close(fd)
        arguments = [sift, path, query] if path.startswith("@") else [sift, query, path]
        with open(os.path.join(folder, "one-shot.csv"), "wb") as out:
            sent = time.monotonic()
            subprocess.run(arguments + ["-o", "csv"], stdout=out, stderr=subprocess.DEVNULL, check=False)
            one_shot.append(time.monotonic() - sent)
    for name, values in (("echo", echo), ("query", typed), ("cpu", cpu), ("busy", busy),
                         ("right", right), ("page", page), ("export", export),
                         ("oneshot", one_shot)):
        ms = [v * 1000 for v in values]
        print(f"{name:7} median {statistics.median(ms):7.1f} ms   worst {max(ms):7.1f} ms")
    ratio = statistics.median(export) / statistics.median(one_shot)
    print(f"export / one-shot -o csv: {ratio:.2f}x (medians)")
    same = filecmp.cmp(target, os.path.join(folder, "one-shot.csv"), shallow=False)
    print("export file: " + ("the same bytes as the one-shot's" if same else "DIFFERS from the one-shot's"))
    shutil.rmtree(folder)


main()
