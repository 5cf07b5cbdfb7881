"""Turns bench/run.sh's measurements into the printed table and the results JSON (machine, date, command,
sizes, figures, ratios, and each target with whether it was met).

    report.py RESULTS.txt RENDER.json --quick 0|1 --rows N --runs N --concurrency N
              --fanout-devices N --dry-rows N --out PATH
"""
import argparse
import datetime
import json
import os
import platform
import subprocess


def machine():
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            model = next(line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    return {"cpus": os.cpu_count(), "cpu": model, "system": f"{platform.system()} {platform.release()}",
            "swift": swift[0] if swift else "unknown",
            "memory_gib": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30)}


def commit():
    """HEAD's short id, marked when the working tree has changes (the binaries may include them)."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout.strip()
    return head + (" with uncommitted changes" if dirty else "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results")
    parser.add_argument("render")
    for name in ["quick", "rows", "runs", "concurrency", "fanout-devices", "dry-rows"]:
        parser.add_argument("--" + name, type=int, required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    figures = {}
    with open(args.results) as results:
        for line in results:
            name, value = line.split()
            figures[name] = float(value)
    render = json.load(open(args.render))
    for workload in render:
        key = "generic" if workload["workload"].startswith("generic") else "rich_apns_2kb"
        figures[f"render.{key}.renders_per_s"] = workload["renders_per_s"]

    pushline = figures["send.pushline.requests_per_s"]
    cpu = {f"{workload}.{client}": figures[f"{workload}.{client}.cpu_us_per_request"]
           for workload in ["send", "register"] for client in ["pushline", "sample", "httpx"]}
    ratios = {
        "pushline_over_httpx": pushline / figures["send.httpx.requests_per_s"],
        "pushline_over_wrk": pushline / figures["send.wrk.requests_per_s"],
        "pushline_over_sample": pushline / figures["send.sample.requests_per_s"],
        "send_cpu_sample_over_pushline": cpu["send.sample"] / cpu["send.pushline"],
        "send_cpu_httpx_over_pushline": cpu["send.httpx"] / cpu["send.pushline"],
        "register_cpu_sample_over_pushline": cpu["register.sample"] / cpu["register.pushline"],
        "register_cpu_httpx_over_pushline": cpu["register.httpx"] / cpu["register.pushline"],
    }
    small = max(args.dry_rows // 100, 1)
    dry_peak = figures[f"dry_run.rows_{args.dry_rows}.peak_rss_mib"]
    live_peak = figures["send.pushline.peak_rss_mib"]
    # Not counted by --quick (valgrind needs the release build).
    instructions = figures.get("cold_start.validate_instructions", float("nan")) / 1e6
    targets = [
        ("CPU per journalled send (rusage)", "≤ 100 µs", cpu["send.pushline"], cpu["send.pushline"] <= 100, "{:.0f} µs"),
        ("  stretch", "≤ 50 µs", cpu["send.pushline"], cpu["send.pushline"] <= 50, "{:.0f} µs"),
        ("CPU per send, sample-style client ÷ Pushline", "≥ 5×", ratios["send_cpu_sample_over_pushline"],
         ratios["send_cpu_sample_over_pushline"] >= 5, "{:.1f}×"),
        # Register rows get the same care, measured the same way; no figure is set for them.
        ("CPU per journalled register row (rusage)", "—", cpu["register.pushline"], None, "{:.0f} µs"),
        ("batch sends vs concurrent httpx client", "≥ 2×", ratios["pushline_over_httpx"], ratios["pushline_over_httpx"] >= 2, "{:.2f}×"),
        ("batch sends vs wrk ceiling", "≥ 50 %", ratios["pushline_over_wrk"], ratios["pushline_over_wrk"] >= 0.5, "{:.0%}"),
        (f"peak RSS, {args.rows:,}-row live run", "≤ 64 MiB", live_peak, live_peak <= 64, "{:.1f} MiB"),
        ("renders/s, generic template, one core", "≥ 1,000,000", figures["render.generic.renders_per_s"],
         figures["render.generic.renders_per_s"] >= 1_000_000, "{:,.0f}"),
        ("emulator fan-out, 1 % of installations", "≥ 200 sends/s", figures["fanout.sends_per_s"],
         figures["fanout.sends_per_s"] >= 200, "{:,.0f}/s"),
        ("cold start: validate, examples without plugins (callgrind)", "≤ 35 M instr.", instructions, instructions <= 35, "{:.1f} M"),
        ("cold start: validate, examples without plugins (wall)", "≤ 20 ms", figures["cold_start.validate_ms"],
         figures["cold_start.validate_ms"] <= 20, "{:.1f} ms"),
        (f"memory: {args.dry_rows:,}-row dry run", "≤ 64 MiB", dry_peak, dry_peak <= 64, "{:.1f} MiB"),
    ]
    if args.quick:
        print("(quick run: sizes too small for the figures to mean anything)")
    print(f"{'measure':<60} {'target':<14} {'measured':>14}  met")
    for name, target, value, met, style in targets:
        print(f"{name:<60} {target:<14} {style.format(value):>14}  {'—' if met is None else 'yes' if met else 'NO'}")
    print()
    for workload in ["send", "register"]:
        print(f"batch {workload}, {args.rows:,} rows, concurrency {args.concurrency} (requests/s; CPU per request; peak RSS):")
        for client in ["pushline", "sample", "httpx"]:
            print(f"  {client:<10} {figures[f'{workload}.{client}.requests_per_s']:>10,.0f}/s {cpu[f'{workload}.{client}']:>9,.0f} µs"
                  f"   {figures[f'{workload}.{client}.peak_rss_mib']:.1f} MiB")
    print(f"  {'wrk':<10} {figures['send.wrk.requests_per_s']:>10,.0f}/s (sends)")
    if "send.pushline.instructions_per_request" in figures:
        print(f"user-space instructions per row (callgrind): send {figures['send.pushline.instructions_per_request'] / 1e3:,.0f} K, "
              f"register {figures['register.pushline.instructions_per_request'] / 1e3:,.0f} K")
    print(f"memory: {small:,}-row dry run {figures[f'dry_run.rows_{small}.peak_rss_mib']:.1f} MiB, "
          f"{args.dry_rows:,} rows {dry_peak:.1f} MiB; cold start --help {figures['cold_start.help_ms']:.1f} ms "
          f"({figures.get('cold_start.help_instructions', float('nan')) / 1e6:.1f} M instructions); validate of the plugin "
          f"examples {figures.get('cold_start.validate_plugins_ms', float('nan')):.0f} ms (their plugins' start included)")

    document = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": "bench/run.sh" + (" --quick" if args.quick else ""),
        "commit": commit(),
        "machine": machine(),
        "sizes": {"rows": args.rows, "runs": args.runs, "concurrency": args.concurrency,
                  "fanout_devices": args.fanout_devices, "dry_rows": args.dry_rows},
        "figures": figures,
        "ratios": {name: round(value, 3) for name, value in ratios.items()},
        "targets": [{"measure": name, "target": target, "measured": round(value, 3), "met": met}
                    for name, target, value, met, _ in targets],
    }
    with open(args.out, "w") as out:
        json.dump(document, out, indent=2, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
