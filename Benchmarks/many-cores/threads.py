"""Per-thread-count CPU of sift on the device: does user time per record grow with -j?
Runs the build under test (sift) and, where present, the build before (sift-old) in turn."""
import os, subprocess, sys, time
C = os.path.dirname(os.path.abspath(__file__)); W = "/tmp/scale"; os.makedirs(W, exist_ok=True)
B = f"{C}/sift-bench"
builds = [(n, f"{C}/{n}") for n in ["sift-old", "sift"] if os.path.exists(f"{C}/{n}")]
f = f"{W}/grn_10000000.csv"
if not os.path.exists(f): subprocess.run([B, "gen", "--rows", "10000000", "--format", "csv", "--out", f], check=True)
subprocess.run(f"cat {f} > /dev/null", shell=True)
jobs = {"count": "-c ''", "filter": "-o csv 'status:received customer:Acme'",
        "top10 date": "-o csv 'sort:-date limit:10'", "top10 amount": "-o csv 'sort:-amount limit:10'",
        "passthru": "-o csv ''"}
for name, args in jobs.items():
    for j in [1, 4, 16]:
        for build, S in builds:
            best = None
            for _ in range(3):
                t = time.perf_counter(); p = subprocess.Popen(["bash", "-c", f"exec {S} -q -j {j} {args} {f} > /dev/null"])
                _, st, ru = os.wait4(p.pid, 0); dt = time.perf_counter() - t
                if best is None or dt < best[0]: best = (dt, ru.ru_utime, ru.ru_stime, ru.ru_maxrss // 1024)
            print(f"{name:12} -j {j:2} {build:8} wall {best[0]*1000:7.0f} ms  user {best[1]:6.2f} s  sys {best[2]:5.2f} s  peak {best[3]} MB", flush=True)
