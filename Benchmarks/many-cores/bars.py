"""Issue 28's bars on a quiet lent machine (Docs/Performance.md, "The scan against the machine's
own tools"): the count against `wc -l`, pass-through against `cat`, `-j 1` against `-j 2`, a piped
standard input, all on two physical cores pinned with taskset (the development machine's two
cores, without other sessions' builds); then the 5 GB pass-through into md5sum, and the top 10
on every core. Runs the build under test (sift) and, where present, the build before
(sift-old), each command's runs interleaved with the others of its group; medians of 7 after a
warm-up. CPU is user + system of the command and everything it waited for."""
import os, statistics, subprocess, time

C = os.path.dirname(os.path.abspath(__file__)); W = "/tmp/bars"; os.makedirs(W, exist_ok=True)
builds = [(n, f"{C}/{n}") for n in ["sift-old", "sift"] if os.path.exists(f"{C}/{n}")]


def two_cores():
    """cpu0 and the first cpu that is not its hyperthread sibling."""
    sib = open("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list").read().strip()
    siblings = set()
    for part in sib.split(","):
        a, _, b = part.partition("-"); siblings.update(range(int(a), int(b or a) + 1))
    other = next(c for c in range(1, os.cpu_count()) if c not in siblings)
    return f"0,{other}"


def once(cmd, cpus):
    pin = f"taskset -c {cpus} " if cpus else ""
    t = time.perf_counter(); p = subprocess.Popen(["bash", "-c", f"{pin}bash -c \"$0\"", cmd])
    _, status, ru = os.wait4(p.pid, 0); dt = time.perf_counter() - t
    assert status == 0, (cmd, status)
    return dt, ru.ru_utime + ru.ru_stime, ru.ru_maxrss // 1024


def group(title, cmds, cpus, runs=7):
    """cmds: [(label, command)], timed in turn, run after run."""
    for _, cmd in cmds: once(cmd, cpus)
    got = {label: [] for label, _ in cmds}
    for _ in range(runs):
        for label, cmd in cmds: got[label].append(once(cmd, cpus))
    print(f"## {title} (cpus {cpus or 'all'}, medians of {runs})", flush=True)
    for label, rs in got.items():
        wall = statistics.median(r[0] for r in rs) * 1000; cpu = statistics.median(r[1] for r in rs)
        print(f"{label:48} wall {wall:8.1f} ms  cpu {cpu:7.3f} s  peak {max(r[2] for r in rs)} MB", flush=True)


ROWS = int(os.environ.get("ROWS", "1000000"))  # smaller for a trial run here
f = f"{W}/grn_{ROWS}.csv"
if not os.path.exists(f):
    subprocess.run([f"{C}/sift-bench", "gen", "--rows", str(ROWS), "--format", "csv", "--seed", "1", "--out", f], check=True)
subprocess.run(f"cat {f} > /dev/null", shell=True)
two = two_cores()
print(f"two cores: {two}; {os.cpu_count()} cpus; file {os.path.getsize(f)} bytes", flush=True)

# How much a second thread gains on reading the file alone: the bound on `-j 2` (Docs/Performance.md,
# Chunks that stay in the cache). `read-threads` is Benchmarks/read-threads.c, built static here.
if os.path.exists(f"{C}/read-threads"):
    group("the read alone, 1 thread against 2", [(f"read-threads {n}", f"{C}/read-threads {f} {n}") for n in (1, 2)], two)
group("count against wc -l", [("wc -l", f"wc -l {f} > /dev/null")] +
      [(f"{b} -c ''", f"{S} -q -c '' {f} > /dev/null") for b, S in builds], two)
group("pass-through against cat", [("cat > /dev/null", f"cat {f} > /dev/null")] +
      [(f"{b} -o csv '' > /dev/null", f"{S} -q -o csv '' {f} > /dev/null") for b, S in builds], two)
group("pass-through into a pipe", [("cat | cat", f"cat {f} | cat > /dev/null")] +
      [(f"{b} -o csv '' | cat", f"{S} -q -o csv '' {f} | cat > /dev/null") for b, S in builds], two)
for job, args in [("count", "-c ''"), ("pass-through", "-o csv ''"), ("filter", "-o csv 'status:received customer:Acme'")]:
    group(f"-j 1 against -j 2: {job}",
          [(f"{b} -j {j} {args}", f"{S} -q -j {j} {args} {f} > /dev/null") for b, S in builds for j in (1, 2)], two)
    group(f"piped standard input, -j 1 against -j 2: {job}",
          [(f"cat | {b} -j {j} {args}", f"cat {f} | {S} -q -j {j} {args} > /dev/null") for b, S in builds for j in (1, 2)], two)

# The 5 GB file: the records 44 times over, one header.
big = f"{W}/grn_{ROWS}x44.csv"
if not os.path.exists(big):
    subprocess.run(f"head -1 {f} > {big}; tail -n +2 {f} > {W}/body; for i in $(seq 44); do cat {W}/body; done >> {big}; rm {W}/body", shell=True, check=True)
print(f"44 times the file: {os.path.getsize(big)} bytes", flush=True)
for cpus in (two, None):
    group("5 GB pass-through into md5sum", [("cat | md5sum", f"cat {big} | md5sum > /dev/null")] +
          [(f"{b} -o csv '' | md5sum", f"{S} -q -o csv '' {big} | md5sum > /dev/null") for b, S in builds], cpus, runs=1)
sums = {b: subprocess.run(f"{S} -q -o csv '' {big} | md5sum", shell=True, capture_output=True, text=True).stdout.split()[0]
        for b, S in builds}
print("md5 of the pass-through:", sums, "file:", subprocess.run(["md5sum", big], capture_output=True, text=True).stdout.split()[0], flush=True)
os.remove(big)

ten = f"{W}/grn_{ROWS}x10.csv"
subprocess.run(f"head -1 {f} > {ten}; tail -n +2 {f} > {W}/body; for i in $(seq 10); do cat {W}/body; done >> {ten}; rm {W}/body", shell=True, check=True)
for args in ["-o csv 'sort:-date limit:10'", "-o csv 'sort:-amount limit:10'"]:
    group(f"top 10, ten times the records: {args}",
          [(f"{b} -j {j}", f"{S} -q -j {j} {args} {ten} > /dev/null") for b, S in builds for j in (1, 16)], None, runs=3)
