#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Turn one benchmark boot's runs (bench/guest.sh) into the results JSON,
a Markdown report and gnuplot plots. Every figure is also given as a ratio
against native swap from the same boot; the targets are printed next to
the measured values.

  report.py --meta META.json --runs RUNS.jsonl --base DIR --out PREFIX --series S [--check]

--meta, --runs and --base may be repeated, once per boot of the same
kernel, sizes and disks (a full run split over several boots): the
report covers every boot's runs, each compared with native swap (or its
group's own, GROUPS) from its own boot. A run compared with one from
another boot, a run in two boots, or boots that differ, are reported as
problems, and --check then fails.

Writes PREFIX.json, PREFIX.md and PREFIX-{sizes,time,fastread}.png. With
--check, exits 1 unless every run of the plan (META's "plan") ran,
verified its data (or, for zram-wb, ran out of memory: OOM_IS_A_RESULT),
and every figure could be computed (make bench-quick)."""
import argparse
import json
import os
import shutil
import subprocess
import sys

# without a suffix: the SSD+HDD pair; -ssd: two SSDs; -single: one SSD;
# zram-: zram in front of the HDD; net-: the SSD in front of a network disk
CONFIGS = ["native", "dm-cache", "swaptier", "native-ssd", "dm-cache-ssd",
           "swaptier-ssd", "native-single", "swaptier-single",
           "zram-prio", "zram-wb", "zram-swaptier", "net-prio", "net-swaptier"]
# configurations whose memory nothing bounds: running out of it is a result
OOM_IS_A_RESULT = ("zram-wb",)
# configurations compared with one of their own, not with native swap:
# prefix, the one they are compared with, their section's title
GROUPS = [("zram-", "zram-prio", "zram in front of the HDD"),
          ("net-", "net-prio", "The SSD in front of a network disk (NBD)")]
WORKLOADS = ["pressure", "hotcold-20-80", "hotcold-10-95", "hotcold-read",
             "aged", "idle"]


def native_of(c):
    """The configuration a run is compared with: native swap on the same
    disks; for a group (GROUPS), its own at priorities (for zram in front
    of the HDD, what zram users run; for a network disk behind the SSD,
    the two as swap areas)."""
    for prefix, base, _ in GROUPS:
        if c.startswith(prefix):
            return base
    for suffix in ("-ssd", "-single"):
        if c.endswith(suffix):
            return "native" + suffix
    return "native"
# upper bounds of the tool's histogram buckets, KiB (the last is "more")
BUCKETS = [4, 8, 16, 32, 64, 128, 256, 512, 1024, None]


def pct(hist, q):
    """Bucket bound under which a share q of the requests fall."""
    total = sum(hist)
    if not total:
        return 0
    run = 0
    for i, n in enumerate(hist):
        run += n
        if run >= q * total:
            return BUCKETS[i] if BUCKETS[i] else 2048
    return 2048


def num(v):
    """A figure for the tables: rounded, or "-" when it is missing."""
    return "-" if v is None else f"{v:.0f}"


def ratio(a, b):
    return round(a / b, 3) if a is not None and b else None


def load_trace(base, run, dev):
    """The tool's analysis of one device's dispatches (bench/run.sh)."""
    try:
        with open(os.path.join(base, run["trace_dir"], dev + ".json")) as fh:
            return json.load(fh)
    except (OSError, ValueError, KeyError):
        return None


def figures(base, run):
    """The per-run figures: requests, sizes, merge ratio, fast read share."""
    w = {"dispatched": 0, "sectors": 0, "queued": 0, "hist": [0] * 10}
    r = {"dispatched": 0, "sectors": 0}
    fast_read_sectors = 0
    zram_reads = 0
    slow_reads = 0
    per_dev = []
    complete = True
    for i, dev in enumerate(run["devices"]):
        tr = load_trace(base, run, dev["dev"])
        st = dev.get("stat") or [0, 0, 0, 0]
        # queued = dispatched + merged, from the disk's own statistics
        if not dev["dev"].startswith("zram"):
            w["queued"] += st[2] + st[3]
        if not tr:
            # a disk that did no I/O in the run (native's second area when
            # the first held everything) leaves no trace to analyse
            s = dev.get("stat")
            if isinstance(s, list) and len(s) == 4 and not any(s):
                continue
            # zram is not traced (it has no requests): its statistics
            # count the 4 KiB pages swap read from it, those it read
            # back from its backing disk included (taken out below)
            if dev["dev"].startswith("zram") and isinstance(s, list) and len(s) == 4:
                zram_reads += s[0]
                continue
            complete = False
            continue
        for e in tr:
            if e["dir"] == "write":
                w["dispatched"] += e["dispatched"]
                w["sectors"] += e["dispatched_sectors"]
                w["hist"] = [a + b for a, b in zip(w["hist"], e["hist"])]
            else:
                r["dispatched"] += e["dispatched"]
                r["sectors"] += e["dispatched_sectors"]
                if i == 0:
                    fast_read_sectors += e["dispatched_sectors"]
                else:
                    slow_reads += e["dispatched"]
            per_dev.append({**e, "dev": dev["dev"], "tier": i,
                            "stat_ios_merges": st})
    # zram's mm_stat (bytes), bd_stat (4 KiB pages) and algorithm, at the
    # run's end
    z = (run.get("zram") or "").split("|")
    mm = [int(v) for v in z[0].split() if v.isdigit()]
    bd = [int(v) for v in z[1].split() if v.isdigit()] if len(z) > 1 else []
    if len(bd) >= 3:
        zram_reads = max(zram_reads - bd[1], 0)
    # the fast tier's share of the sectors swap read: zram's reads served
    # from memory count as the fast tier's
    read_sectors = r["sectors"] + zram_reads * 8
    fast_read_sectors += zram_reads * 8
    res = dict(kv.split("=", 1) for kv in run["result"].split() if "=" in kv)
    # the slow tiers' read requests during the timed phase (hot/cold and
    # idle: the accesses only), from swapbench's phase_io
    phase = {}
    for d in res.get("phase_io", "").split(","):
        x = d.split(":")
        if len(x) == 5 and all(v.isdigit() for v in x[1:]):
            phase[x[0]] = [int(v) for v in x[1:]]
    names = [dev["dev"] for dev in run["devices"]]
    slow_phase = (sum(phase[n][0] for n in names[1:])
                  if len(names) > 1 and all(n in phase for n in names) else None)
    f = {
        "config": run["config"],
        "workload": run["workload"],
        "verified": run["rc"] == 0 and res.get("verified") == "1",
        "wall_s": run["wall"],
        "workload_s": float(res["seconds"]) if "seconds" in res else None,
        "accesses_per_s": float(res["aps"]) if "aps" in res else None,
        "pswpin": run["pswpin"],
        "pswpout": run["pswpout"],
        "write_requests": w["dispatched"],
        "write_avg_kib": round(w["sectors"] / 2 / w["dispatched"], 1) if w["dispatched"] else 0,
        "write_p50_kib": pct(w["hist"], 0.5),
        "write_p90_kib": pct(w["hist"], 0.9),
        "write_merge_ratio": round(w["queued"] / w["dispatched"], 2) if w["dispatched"] and w["queued"] else None,
        "write_hist": w["hist"],
        "read_requests": r["dispatched"],
        "slow_read_requests": slow_reads if len(run["devices"]) > 1 else None,
        "slow_read_requests_timed": slow_phase,
        "read_avg_kib": round(r["sectors"] / 2 / r["dispatched"], 1) if r["dispatched"] else 0,
        "fast_read_share": round(fast_read_sectors / read_sectors, 3) if read_sectors else 0,
        "devices": per_dev,
        "trace_complete": complete,
    }
    # the target's "stats" message, by name (tierN lines as tierN.key)
    st = dict(kv.split("=", 1) for kv in (run.get("swaptier_stats") or "").split()
              if "=" in kv)
    n = {k: int(v) for k, v in st.items() if v.isdigit()}
    if all(k in n for k in ("map_bytes", "logical", "promoted", "demoted",
                            "discards", "mapped")) and n["logical"]:
        f["map_bytes_per_block"] = round(n["map_bytes"] / n["logical"], 2)
        f["promoted"] = n["promoted"]
        f["demoted"] = n["demoted"]
        f["discards"] = n["discards"]
        f["mapped_at_end"] = n["mapped"]
        # blocks copied between tiers per page swapped out
        f["copy_share"] = (round((n["promoted"] + n["demoted"]) / run["pswpout"], 3)
                           if run["pswpout"] else None)
    if len(mm) >= 5:
        f["zram_peak_mib"] = round(mm[4] / 2**20, 1)
    if len(bd) >= 3:
        f["zram_written_back"] = bd[2]
        f["zram_read_back"] = bd[1]
    if len(z) > 2 and z[2].strip():
        f["zram_comp"] = z[2].strip()
    f["fill"] = run.get("fill", 0)
    f["oom_kills"] = run.get("oom_kills", 0)
    # zram's own writeback may not keep up with a load, and nothing bounds
    # its memory: a zram-wb run the OOM killer ended (swapbench killed by
    # SIGKILL, or reporting SIGKILLed processes and no other signal), with
    # no bad page found, is that configuration's result, not a failure
    # (bench/guest.sh oom_ended)
    by_oom = run["rc"] == 137 or (run["rc"] == 1 and res.get("killed", "0") != "0"
                                  and res.get("signaled") == "0")
    f["out_of_memory"] = (run["config"] in OOM_IS_A_RESULT and not f["verified"]
                          and f["oom_kills"] > 0 and by_oom
                          and not run.get("bad_reports")
                          and res.get("bad", "0") == "0")
    # the speed of a run whose data was not verified means nothing
    if not f["verified"]:
        f["workload_s"] = f["accesses_per_s"] = None
    return f


def plot(prefix, rows, meta):
    gp = shutil.which("gnuplot")
    if not gp:
        return []
    made = []
    base = os.path.basename(prefix)
    # request-size histograms (pressure workload), one line per config
    dat = prefix + "-sizes.dat"
    with open(dat, "w") as fh:
        fh.write("bucket " + " ".join(CONFIGS) + "\n")
        for i, b in enumerate(BUCKETS):
            label = f"<={b}K" if b else ">1M"
            vals = []
            for c in CONFIGS:
                row = rows.get((c, "pressure"))
                vals.append(str(row["write_hist"][i] if row else 0))
            fh.write(label + " " + " ".join(vals) + "\n")
    times = prefix + "-time.dat"
    with open(times, "w") as fh:
        fh.write("config " + " ".join(WORKLOADS) + "\n")
        for c in CONFIGS:
            vals = []
            for w in WORKLOADS:
                row, nat = rows.get((c, w)), rows.get((native_of(c), w))
                vals.append(str(ratio(nat["workload_s"], row["workload_s"]) or 0)
                            if row and nat else "0")
            fh.write(c + " " + " ".join(vals) + "\n")
    reads = prefix + "-fastread.dat"
    with open(reads, "w") as fh:
        fh.write("config " + " ".join(WORKLOADS) + "\n")
        for c in ["native", "dm-cache", "swaptier"]:
            vals = [str(rows[(c, w)]["fast_read_share"] if (c, w) in rows else 0)
                    for w in WORKLOADS]
            fh.write(c + " " + " ".join(vals) + "\n")
    script = f"""
set terminal png size 900,480 noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key outside right top
set grid ytics
set xtics nomirror
set output '{prefix}-sizes.png'
set title 'Dispatched swap write requests by size, pressure workload ({meta["kernel"]})'
set ylabel 'requests'
plot for [i=2:{len(CONFIGS) + 1}] '{dat}' using i:xtic(1) title columnheader(i)
set yrange [0:*]
set output '{prefix}-time.png'
set title 'Workload speed against native (native time / time; higher is better)'
set ylabel 'x native'
plot for [i=2:{len(WORKLOADS) + 1}] '{times}' using i:xtic(1) title columnheader(i)
set output '{prefix}-fastread.png'
set title 'Share of swap-in read sectors served by the fast device'
set ylabel 'share'
set yrange [0:1]
plot for [i=2:{len(WORKLOADS) + 1}] '{reads}' using i:xtic(1) title columnheader(i)
"""
    subprocess.run([gp], input=script, text=True, check=True)
    for f in (dat, times, reads):
        os.unlink(f)
    for n in ("sizes", "time", "fastread"):
        made.append(f"{base}-{n}.png")
    return made


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--meta", required=True, action="append")
    ap.add_argument("--runs", required=True, action="append")
    ap.add_argument("--base", required=True, action="append",
                    help="directory of the traces")
    ap.add_argument("--out", required=True)
    ap.add_argument("--series", required=True)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()

    problems = []
    if not len(a.meta) == len(a.runs) == len(a.base):
        print(f"not ok bench/{a.series}/data: one --meta, --runs and --base per boot")
        return 1
    boots = []
    try:
        for m, r, b in zip(a.meta, a.runs, a.base):
            boots.append((json.load(open(m)),
                          [json.loads(x) for x in open(r) if x.strip()], b))
    except (OSError, ValueError) as e:
        print(f"not ok bench/{a.series}/data: {e}")
        return 1
    meta = dict(boots[0][0])
    meta["plan"] = [p for m, _, _ in boots for p in m.get("plan", [])]
    meta["boots"] = len(boots)
    same = ("kernel", "scale", "ram_mib", "pressure_mib", "hotcold_mib",
            "hotcold_accesses", "aged_rounds", "idle_mib", "swaptier_opts",
            "disks")
    for m, _, b in boots[1:]:
        diff = [k for k in same if m.get(k) != meta.get(k)]
        if diff:
            problems.append(f"{b}: not the same kernel and sizes as {boots[0][2]}: "
                            + ", ".join(diff))
    rows, fio = {}, None
    for boot, (m, lines, base) in enumerate(boots):
        for x in lines:
            if "fio" in x:
                fio = x["fio"]
                continue
            f = figures(base, x)
            f["boot"] = boot
            if (f["config"], f["workload"]) in rows:
                problems.append(f"{f['config']}/{f['workload']}: ran in two boots")
            rows[(f["config"], f["workload"])] = f
    # each run compares with native (or its group's own) from its boot
    for (c, w), f in rows.items():
        n = rows.get((native_of(c), w))
        if n and n["boot"] != f["boot"]:
            problems.append(f"{c}/{w}: {native_of(c)}/{w} ran in another boot")

    plan = [tuple(x.split("/", 1)) for x in meta.get("plan", []) if "/" in x]
    if not plan:
        problems.append("meta: no plan of runs")
    for c, w in plan:
        f = rows.get((c, w))
        if not f:
            problems.append(f"{c}/{w}: did not run")
        elif f["out_of_memory"]:
            continue
        elif not f["verified"]:
            problems.append(f"{c}/{w}: data not verified")
        elif not f["trace_complete"] or (not f["write_requests"]
                                         and not c.startswith("zram-")):
            # (a zram configuration may not write the HDD in a quick run)
            problems.append(f"{c}/{w}: no write trace")
        elif not f["pswpout"]:
            problems.append(f"{c}/{w}: did not swap")
        elif f["accesses_per_s"] is None:
            problems.append(f"{c}/{w}: no speed figure")
        elif f["write_merge_ratio"] is None and not c.startswith("zram-"):
            problems.append(f"{c}/{w}: no merge figure (disk statistics)")
        elif "swaptier" in c and "map_bytes_per_block" not in f:
            problems.append(f"{c}/{w}: no dm-swaptier stats")
        elif c.startswith("zram-") and "zram_peak_mib" not in f:
            problems.append(f"{c}/{w}: no zram statistics")
    if not fio or not fio.get("linear_iops") or not fio.get("swaptier_iops"):
        problems.append("fio: no IOPS figures")

    # ratios against native, the targets
    def get(c, w, k):
        f = rows.get((c, w))
        return f.get(k) if f else None

    for (c, w), f in rows.items():
        n = native_of(c)
        f["vs_native"] = {
            "write_requests": ratio(f["write_requests"], get(n, w, "write_requests")),
            "write_avg_kib": ratio(f["write_avg_kib"], get(n, w, "write_avg_kib")),
            "speed": ratio(get(n, w, "workload_s"), f["workload_s"]),
            "fast_read_share": ratio(f["fast_read_share"], get(n, w, "fast_read_share")),
            "slow_read_requests": ratio(f.get("slow_read_requests"),
                                        get(n, w, "slow_read_requests")),
            "slow_read_requests_timed": ratio(f.get("slow_read_requests_timed"),
                                              get(n, w, "slow_read_requests_timed")),
        }
    targets = []

    def target(name, value, goal, met):
        targets.append({"target": name, "measured": value, "goal": goal,
                        "met": bool(met) if value is not None else None})

    # the targets, on the SSD+HDD pair (issue 17), for what ran
    ran = [w for w in WORKLOADS if ("swaptier", w) in rows and ("native", w) in rows]
    for w in ran:
        v = get("swaptier", w, "vs_native")["speed"]
        if w == "idle":
            target("speed vs native (idle)", v, ">= 4", v is not None and v >= 4)
        else:
            target(f"speed vs native ({w})", v, ">= 1.0 (never < 0.95)",
                   v is not None and v >= 1.0)
    for w in ("hotcold-20-80", "hotcold-10-95", "hotcold-read"):
        if ("dm-cache", w) in rows and w in ran:
            v = ratio(get("dm-cache", w, "workload_s"), get("swaptier", w, "workload_s"))
            target(f"speed vs dm-cache ({w})", v, ">= 1.5", v is not None and v >= 1.5)
    for w in ran:
        v = get("swaptier", w, "vs_native")["slow_read_requests"]
        target(f"slow-tier read requests vs native ({w})", v, "<= 1",
               v is not None and v <= 1)
        # the same during the timed phase only (hot/cold and idle), the
        # requests the measured accesses waited for
        if get("swaptier", w, "slow_read_requests_timed") is not None:
            v = get("swaptier", w, "vs_native")["slow_read_requests_timed"]
            target(f"slow-tier read requests vs native, timed phase ({w})", v,
                   "<= 1", v is not None and v <= 1)
    for w in ("pressure", "aged"):
        if w in ran:
            v = get("swaptier", w, "vs_native")["write_requests"]
            target(f"swap-out write requests vs native ({w})", v, "<= 0.25",
                   v is not None and v <= 0.25)
    for w in ran:
        v = get("swaptier", w, "copy_share")
        target(f"blocks copied per page swapped out ({w})", v, "<= 0.5",
               v is not None and v <= 0.5)
    v = ratio(fio and fio.get("swaptier_iops"), fio and fio.get("linear_iops"))
    target("4 KiB randrw IOPS vs dm-linear", v, ">= 0.95", v is not None and v >= 0.95)
    v = max((f.get("map_bytes_per_block", 0) for f in rows.values()), default=None)
    target("map memory, bytes per block", v, "<= 10", v is not None and v <= 10)

    result = {"meta": meta, "series": a.series, "runs": list(rows.values()),
              "fio": fio, "targets": targets, "problems": problems}
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out + ".json", "w") as fh:
        json.dump(result, fh, indent=1)
    try:
        pngs = plot(a.out, rows, meta)
    except (subprocess.CalledProcessError, KeyError) as e:
        problems.append(f"plots: {e}")
        pngs = []
    if len(pngs) != 3:
        problems.append("plots: gnuplot did not make all three")

    md = [f"# dm-swaptier benchmark: {meta['kernel']} ({meta['scale']})", ""]
    if meta["boots"] > 1:
        md += [f"The runs come from {meta['boots']} boots of the same kernel with the "
               "same sizes; each run and the one it is compared with come from one "
               "boot.", ""]
    disks = meta.get("disks", {})

    def rot(d):
        r = disks.get(d, {}).get("rotational")
        return {0: "reports non-rotational", 1: "reports rotational"}.get(r, "")
    md.append(f"Guest: {meta['ram_mib']} MiB RAM ({meta['avail_mib']} MiB available), "
              f"2 vCPUs, QEMU TCG. Workloads: pressure (3 processes, "
              f"{meta['pressure_mib']} MiB in all), hot/cold ({meta['hotcold_mib']} MiB, "
              f"{meta['hotcold_accesses']} accesses; 20 % of the pages take 80 % and one "
              f"access in four writes; 10 % take 95 %; hotcold-read: 20/80 with one "
              f"write in twenty), aged ({meta['aged_rounds']} rounds of fill, free a "
              f"scattered half, refill, then the pressure load), idle (a process of "
              f"{meta.get('idle_mib')} MiB is swapped out first, then the 20/80 load "
              f"of the rest runs; the idle process verifies its pages at the end). "
              f"Every page read back is verified.")
    if meta.get("swaptier_opts"):
        md += ["", f"A variant: every dm-swaptier device had the table options "
               f"`{meta['swaptier_opts']}` (`bench/run.sh --opts`)."]
    # the quick run (make check) checks that everything runs, on
    # unthrottled files (bench/run.sh): its speeds are no measurement
    if meta.get("scale") == "quick":
        thr_hdd = thr_slow = "unthrottled in the quick run"
        md += ["", "A quick run: its disks are not throttled, so its speeds and "
               "ratios are not measurements; it checks that every configuration "
               "and workload runs, verifies its data and yields every figure."]
    else:
        thr_hdd = "QEMU `throttling.iops-total=200,throttling.bps-total=104857600`"
        thr_slow = "QEMU `throttling.iops-total=4000,throttling.bps-total=400000000`"
    md += ["", "Disks, as the kernel sees them:", "",
           f"- fast: an SSD, unthrottled file, {rot('fast')}; every pair's first tier",
           f"- hdd: a rotating disk, {thr_hdd}, {rot('hdd')}; the configurations "
           f"without a suffix are the SSD+HDD pair",
           f"- slow: a slower SSD, {thr_slow}, {rot('slow')}; the `-ssd` configurations",
           f"- big: an SSD alone, unthrottled, the slow one's size, {rot('big')}; the "
           f"`-single` configurations",
           "- zram0: compressed RAM (lz4, no mem_limit) of the fast disk's size in front "
           "of the hdd, the `zram-` configurations: `zram-prio` the two as swap areas at "
           "priorities, `zram-wb` zram (as large as the hdd) writing back to it every "
           "10 s the pages untouched since the last mark (zram's documented idle "
           "writeback), `zram-swaptier` dm-swaptier over both. Their pages are a third "
           "incompressible (`SWAPBENCH_FILL=33`, about 3:1); the others' compress "
           "about 50:1",
           f"- net: a disk on another machine, a file the host serves with qemu-nbd "
           f"over QEMU's user-mode network, attached with nbd-client (NBD), "
           f"{rot('net')}; the `net-` configurations: `net-prio` the fast disk and it as "
           f"swap areas at priorities, `net-swaptier` dm-swaptier over both",
           "", "Under emulation only ratios and counts mean something: every ratio is "
           "against native swap (priorities) on the same disks in the same boot; for "
           "the `zram-` and `net-` configurations, against `zram-prio` and `net-prio` "
           "(\"x native\" in the tables below is then \"x zram-prio\" or "
           "\"x net-prio\")."]
    md += ["", "## Targets", "", "| target | measured | goal | met |", "|---|---|---|---|"]
    for t in targets:
        met = {True: "yes", False: "**no**", None: "n/a"}[t["met"]]
        md.append(f"| {t['target']} | {t['measured']} | {t['goal']} | {met} |")
    md += ["", "## Per configuration and workload", "",
           "| config | workload | verified | time s | x native | accesses/s | pswpin | pswpout | "
           "write reqs | x native | avg KiB | p50 | p90 | merge | read reqs | slow reads | "
           "x native | timed slow reads | x native | fast read share |",
           "|" + "---|" * 20]
    for w in WORKLOADS:
        for c in CONFIGS:
            f = rows.get((c, w))
            if not f:
                continue
            vn = f["vs_native"]
            md.append(f"| {c} | {w} | "
                      f"{'yes' if f['verified'] else 'OOM' if f['out_of_memory'] else '**no**'} | "
                      f"{f['workload_s']} | {vn['speed']} | {num(f['accesses_per_s'])} | "
                      f"{f['pswpin']} | {f['pswpout']} | {f['write_requests']} | {vn['write_requests']} | "
                      f"{f['write_avg_kib']} | {f['write_p50_kib']} | {f['write_p90_kib']} | "
                      f"{f['write_merge_ratio']} | {f['read_requests']} | "
                      f"{f['slow_read_requests']} | {vn['slow_read_requests']} | "
                      f"{f.get('slow_read_requests_timed')} | "
                      f"{vn.get('slow_read_requests_timed')} | "
                      f"{f['fast_read_share']} |")
    sw = [f for f in rows.values() if "swaptier" in f["config"]]
    if sw:
        md += ["", "## dm-swaptier", "",
               "| config | workload | promoted | demoted | copied per page out | "
               "discards received | mapped at end | map B/block |", "|" + "---|" * 8]
        for f in sw:
            md.append(f"| {f['config']} | {f['workload']} | {f.get('promoted')} | "
                      f"{f.get('demoted')} | {f.get('copy_share')} | {f.get('discards')} | "
                      f"{f.get('mapped_at_end')} | {f.get('map_bytes_per_block')} |")
    for prefix, base, title in GROUPS:
        zr = [rows[(c, w)] for w in WORKLOADS for c in CONFIGS
              if c.startswith(prefix) and (c, w) in rows]
        if not zr:
            continue
        z = prefix == "zram-"
        md += ["", f"## {title}", "",
               f"| config | workload | time s | x {base} | accesses/s | second disk's "
               f"read reqs | x {base} | write reqs to disks |"
               + (" zram's peak memory MiB | written back by zram (pages) | "
                  "read back by zram (pages) |" if z else ""),
               "|" + "---|" * (11 if z else 8)]
        for f in zr:
            vn = f["vs_native"]
            md.append(f"| {f['config']} | {f['workload']} | "
                      f"{'out of memory' if f['out_of_memory'] else f['workload_s']} | "
                      f"{vn['speed']} | {num(f['accesses_per_s'])} | "
                      f"{f['slow_read_requests']} | {vn['slow_read_requests']} | "
                      f"{f['write_requests']} |"
                      + (f" {f.get('zram_peak_mib', '-')} | "
                         f"{f.get('zram_written_back', '-')} | "
                         f"{f.get('zram_read_back', '-')} |" if z else ""))
    if fio:
        md += ["", f"fio 4 KiB random read/write, iodepth 16, {fio['runtime']} s on the big "
               f"disk: dm-linear {num(fio.get('linear_iops'))} IOPS, dm-swaptier "
               f"{num(fio.get('swaptier_iops'))} IOPS."]
    md += ["", "Write requests are every write dispatched to the configuration's "
           "devices during the run: for dm-swaptier they include its migration copies "
           "(the demoted blocks above), for dm-cache its promotions, writebacks and "
           "metadata. p50/p90 are histogram bucket bounds (KiB); merge = queued / "
           "dispatched write requests; fast read share = read sectors dispatched to "
           "the fast device / all read sectors; slow reads = read requests dispatched "
           "to the pair's second disk in the whole run (fill, accesses, "
           "verification); timed slow reads = the same disk's completed read "
           "requests during the timed phase alone (hot/cold and idle), the ones "
           "the measured accesses waited for. \"time s\" is the workload's own "
           "time: for hot/cold and idle, the access phase only; x native is native's "
           "time / this time (higher is faster)."]
    for p in pngs:
        md += ["", f"![{p}]({p})"]
    if problems:
        md += ["", "## Problems", ""] + [f"- {p}" for p in problems]
    with open(a.out + ".md", "w") as fh:
        fh.write("\n".join(md) + "\n")
    for p in problems:
        print(f"# bench/{a.series}: {p}")
    return 1 if a.check and problems else 0


if __name__ == "__main__":
    sys.exit(main())
