"""Times two commands as whole processes, in turn (A B A B ...), and prints each one's median
wall and CPU time and the medians of the A/B ratios taken pair by pair: pairing keeps a ratio
meaningful when the machine's speed drifts (Docs/Performance.md, Method).

    python3 Benchmarks/paired.py [-n RUNS] [--warmup K] --vs 'COMMAND B' -- COMMAND A ...

Neither command is given a shell: A is its arguments, B one string split as a shell splits words;
one that needs a pipe or a redirection is written as `sh -c '...'`. What they print is thrown
away. CPU is the user and system time of the command and of every
process it waited for (`wait4(2)`), as `/usr/bin/time` reports it; peak memory is the largest
single process's, and cannot read below this script's own (about 15 MiB, which a child has
before it starts its program): `/usr/bin/time -v` gives a command's own peak.
"""
import argparse
import os
import shlex
import statistics
import subprocess
import time


def once(command):
    """Runs `command` (its arguments) once: its wall seconds, CPU seconds and peak resident MiB."""
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    if status != 0:
        raise SystemExit(f"paired.py: exit status {status >> 8} from: {shlex.join(command)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def spread(values):
    return f"{min(values):10.4f} {statistics.median(values):10.4f} {max(values):10.4f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=7, help="runs of each command (default 7)")
    parser.add_argument("--warmup", type=int, default=1, help="runs of each first, not counted")
    parser.add_argument("--vs", required=True, help="command B, the one A is compared to")
    parser.add_argument("command", nargs="+", help="command A")
    args = parser.parse_args()
    a, b = args.command, shlex.split(args.vs)
    for _ in range(args.warmup):
        once(a)
        once(b)
    runs = [(once(a), once(b)) for _ in range(args.n)]
    print(f"A = {shlex.join(a)}\nB = {shlex.join(b)}\n{args.n} runs each, in turn; min, median, max")
    for name, index in (("A", 0), ("B", 1)):
        print(f"{name} wall s   {spread([r[index][0] for r in runs])}")
        print(f"{name} cpu s    {spread([r[index][1] for r in runs])}")
        print(f"{name} peak MiB {spread([r[index][2] for r in runs])}")
    print(f"A/B wall    {spread([ra[0] / rb[0] for ra, rb in runs])}")
    print(f"A/B cpu     {spread([ra[1] / rb[1] for ra, rb in runs if rb[1] > 0])}")


if __name__ == "__main__":
    main()
