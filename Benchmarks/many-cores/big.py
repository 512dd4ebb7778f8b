"""Issue 28 item 5 on the device: top-N and full sort of a ~5 GB CSV, sift vs GNU sort vs DuckDB.
Each command runs once (the file is too large to repeat in a lease); wall time and peak RSS of the
process tree (os.wait4), output line counts and a checksum of the output compared."""
import hashlib, os, subprocess, sys, time
C = os.path.dirname(os.path.abspath(__file__))
W = "/tmp/scale"; os.makedirs(W, exist_ok=True)
S, B, D = f"{C}/sift", f"{C}/sift-bench", f"{W}/duckdb"
if not os.path.exists(D):
    subprocess.run(f"xz -dc {C}/duckdb.xz > {D} && chmod +x {D}", shell=True, check=True)
rows = int(sys.argv[1]) if len(sys.argv) > 1 else 42000000
f = f"{W}/big_{rows}.csv"
if not os.path.exists(f):
    t = time.time(); subprocess.run([B, "gen", "--rows", str(rows), "--format", "csv", "--seed", "1", "--out", f], check=True)
    print(f"gen {f} {os.path.getsize(f)/1e9:.2f} GB, {rows} records, in {time.time()-t:.1f}s", flush=True)
subprocess.run(f"cat {f} > /dev/null", shell=True)
def run(name, cmd):
    t = time.perf_counter()
    p = subprocess.Popen(["bash", "-c", cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    h = hashlib.md5(); n = 0
    while True:
        b = p.stdout.read(1 << 20)
        if not b: break
        h.update(b); n += b.count(b"\n")
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t
    print(f"{name:28} {dt:8.1f} s  user {ru.ru_utime:7.1f} s  sys {ru.ru_stime:6.1f} s  peak {ru.ru_maxrss/1024:8.0f} MB  lines {n}  md5 {h.hexdigest()[:12]}  status {status>>8} {err[-200:].decode(errors='replace').strip()}", flush=True)
q = f"read_csv('{f}', all_varchar=true)"
jobs = [
  ("sift top10 sort:-date", f"{S} -q -o csv 'sort:-date limit:10' {f}"),
  ("duckdb top10", f"{D} -csv -c \"SELECT * FROM {q} ORDER BY date DESC LIMIT 10\""),
  ("sift top10/group", f"{S} -q -o csv 'group:customer sort:-date limit:3/group' {f} | wc -l"),
  ("sift full sort:-date", f"{S} -q -o csv 'sort:-date' {f} | md5sum"),
  ("gnu sort -t, -k2,2r -s", f"(head -1 {f}; tail -n +2 {f} | LC_ALL=C sort -s -t, -k2,2r -T {W}) | md5sum"),
  ("duckdb full sort", f"{D} -c \"SET temp_directory='{W}/duck.tmp'; COPY (SELECT * FROM {q} ORDER BY date DESC) TO '/dev/stdout' (FORMAT csv)\" | md5sum"),
]
only = os.environ.get("ONLY")
for name, cmd in jobs:
    if only and not any(o in name for o in only.split(",")): continue
    run(name, cmd)
