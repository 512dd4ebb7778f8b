#!/usr/bin/env python3
"""Keys while a pipe is still open in `sift -i` (Docs/Interactive.md, Piped standard input).

    python3 Benchmarks/interactive_pipe.py SIFT FILE [SECONDS]

Starts `SIFT -i` on a pseudo-terminal (100x30, NO_COLOR) with standard input a pipe that a
slow producer fills with FILE evenly over SECONDS (default 8), and, while the pipe is open:
  echo    each key of `status:received` typed 150 ms apart (so runs over what has arrived start
          between them): time until its character is drawn on the query line;
  result  its last key: time until the screen shows that query's result (its chip);
then waits for the pipe's end (`Row 1 of N` without `so far`). Three rounds (the query
cleared with Ctrl-U between them); the median and the worst are printed, in milliseconds.
"""
import os, statistics, sys, threading, time

from pty_screen import Screen, start


def produce(path, write_fd, seconds):
    """Writes the file into the pipe evenly over `seconds`, then closes it."""
    size = os.path.getsize(path)
    piece = 1 << 16
    started = time.monotonic()
    with open(path, "rb") as f:
        sent = 0
        while chunk := f.read(piece):
            os.write(write_fd, chunk)
            sent += len(chunk)
            ahead = started + seconds * sent / size - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)
    os.close(write_fd)


def main():
    sift, path = sys.argv[1:3]
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 8.0
    query = "status:received"
    echo, result, ended = [], [], []
    for _ in range(3):
        read_fd, write_fd = os.pipe()
        pid, fd = start([sift, "-i"], read_fd)
        os.close(read_fd)
        producer = threading.Thread(target=produce, args=(path, write_fd, seconds))
        began = time.monotonic()
        producer.start()
        screen = Screen(fd)
        screen.read_until("so far")
        os.write(fd, b"/")
        time.sleep(0.2)
        typed = ""
        for ch in query:
            typed += ch
            sent = time.monotonic()
            os.write(fd, ch.encode())
            echo.append(screen.read_until(typed) - sent)
            time.sleep(0.15)
        result.append(screen.read_until("[Status: received]") - sent)
        still_open = producer.is_alive()
        producer.join()
        # The pipe's end: a position line without `so far`.
        while True:
            last = screen.seen.rfind(b"Row ")
            if last >= 0 and b"\x1b" in screen.seen[last:] and b"so far" not in screen.seen[last:].split(b"\x1b")[0]:
                break
            screen.read_until("Row ", timeout=120)
        ended.append(time.monotonic() - began)
        os.write(fd, b"\x1bq")
        os.waitpid(pid, 0)
        os.close(fd)
        if not still_open:
            print("note: the pipe ended before the query's result was drawn; use more SECONDS")
    for name, values in (("echo", echo), ("result", result)):
        ms = [v * 1000 for v in values]
        print(f"{name:7} median {statistics.median(ms):7.1f} ms   worst {max(ms):7.1f} ms   ({len(ms)} keys)")
    print(f"pipe open {seconds:.0f} s; its end drawn after {statistics.median(ended):.1f} s (median)")


main()
