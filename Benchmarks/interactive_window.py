#!/usr/bin/env python3
"""`G` on a long result in `sift -i` (Docs/Interactive.md, List).

    python3 Benchmarks/interactive_window.py SIFT FILE RECORDS [QUERY...]

Starts `SIFT -i QUERY FILE` on a pseudo-terminal (100x30, NO_COLOR) for each QUERY (default:
the empty query and `sort:-qty`), waits for `Row 1 of RECORDS`, then five times: `G`, time
until `Row RECORDS of RECORDS` is drawn (the window of the last rows read again), and `g`, time
until `Row 1 of` is. Prints the median and the worst in milliseconds, and the screen's peak
resident memory (VmHWM) after them.
"""
import os, statistics, sys, time

from pty_screen import Screen, start


def main():
    sift, path, records = sys.argv[1:4]
    queries = sys.argv[4:] or ["", "sort:-qty"]
    for query in queries:
        pid, fd = start([sift, "-i", query, path])
        screen = Screen(fd)
        screen.read_until(f"Row 1 of {records}")
        time.sleep(0.3)
        end, home = [], []
        for _ in range(5):
            sent = time.monotonic()
            os.write(fd, b"G")
            end.append(screen.read_until(f"Row {records} of {records}") - sent)
            time.sleep(0.2)
            sent = time.monotonic()
            os.write(fd, b"g")
            home.append(screen.read_until(f"Row 1 of {records}") - sent)
            time.sleep(0.2)
        peak = [l for l in open(f"/proc/{pid}/status") if l.startswith("VmHWM")][0].split()[1]
        os.write(fd, b"q")
        os.waitpid(pid, 0)
        os.close(fd)
        for name, values in (("G", end), ("g", home)):
            ms = [v * 1000 for v in values]
            print(f"{query or '(empty)':12} {name}  median {statistics.median(ms):7.1f} ms   worst {max(ms):7.1f} ms")
        print(f"{query or '(empty)':12} peak memory {int(peak) // 1024} MB")


main()
