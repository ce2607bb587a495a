#!/usr/bin/python3
"""results_pages.py - regenerate benchmarks/RESULTS.md and validation/RESULTS.md
from the data they summarise, so that a page cannot drift from its data.

    /usr/bin/python3 scripts/results_pages.py                 # both pages, figures
    /usr/bin/python3 scripts/results_pages.py --validate build/mbdae
        # first record `build/mbdae validate` (and --list) as the validation data
    /usr/bin/python3 scripts/results_pages.py --check [--cases build/mbdae]
        # regenerate into a temporary directory and fail (exit 1) on any difference
        # with the committed pages; --cases also checks that the recorded
        # validation data lists the same cases as `mbdae validate --list`

Inputs (paths relative to the source tree):
  benchmarks/results/intro.md           the benchmark page's opening text
  benchmarks/results/headline/*.csv     headline rows, one file per topic, header
                                        HEADLINE_COLUMNS below (every file is read)
  benchmarks/results/sections/*.md      one section per topic; order: the names in
                                        sections/ORDER first, then the rest by name
  benchmarks/results/<dir>/*.gp         figures: each script is run by gnuplot in
                                        its own directory with the variable `out`
                                        set to the PNG to write (<name>.png)
  validation/results/intro.md           the validation page's opening text
  validation/results/validate.txt       output of `mbdae validate`
  validation/results/cases.txt          output of `mbdae validate --list`
  validation/results/setups/*.md        the set-ups, order as for sections; a line
                                        `<!-- cases: PATTERN ... -->` names the
                                        cases (shell patterns) a set-up covers

Debian's python3 standard library only; gnuplot for the figures. Bad input (a
CSV with the wrong header or row length, an unparsable validation line) is
reported with file and line, exit 2, and nothing is written.
"""

import argparse
import csv
import difflib
import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HEADLINE_COLUMNS = ["question", "problem", "size", "t_end_s", "method", "settings",
                    "accuracy_metric", "accuracy", "cpu_s", "baseline_method",
                    "speedup_vs_baseline", "command", "date", "commit"]
COMMAND = "/usr/bin/python3 scripts/results_pages.py"
BENCH_PAGE = "benchmarks/RESULTS.md"
VALID_PAGE = "validation/RESULTS.md"


class InputError(Exception):
    pass


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def cell(text):
    """Text for a markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def code_cell(text):
    text = " ".join(str(text).split())
    return "`" + text.replace("|", "\\|") + "`" if text else ""


def anchor(heading):
    """GitHub's anchor for a heading."""
    a = heading.strip().lower()
    a = re.sub(r"[^\w\- ]", "", a)
    return a.replace(" ", "-")


def ordered(paths, order_file):
    """paths (files of one directory) in the order named in order_file, the rest
    by name."""
    by_name = {os.path.splitext(os.path.basename(p))[0]: p for p in paths}
    out = []
    if os.path.exists(order_file):
        for lineno, line in enumerate(read(order_file).splitlines(), 1):
            name = line.split("#", 1)[0].strip()
            if not name:
                continue
            name = os.path.splitext(name)[0]
            if name not in by_name:
                raise InputError(f"{order_file}:{lineno}: no file named {name}")
            if by_name[name] not in out:
                out.append(by_name[name])
    out += sorted(p for p in paths if p not in out)
    return out


def first_heading(text, path):
    for line in text.splitlines():
        if line.startswith("## "):
            return line[3:].strip()
    raise InputError(f"{path}:1: a section must start with a '## ' heading")


# --------------------------------------------------------------------------
# figures

def figure_scripts(root, under):
    return sorted(glob.glob(os.path.join(root, under, "**", "*.gp"), recursive=True))


def run_figures(root, scripts, outdir):
    """Run each figure script; the PNG goes next to it (outdir None) or under
    outdir with the same relative path. Returns the list of failures."""
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        return ["gnuplot not found: figures not regenerated"]
    failures = []
    for gp in scripts:
        png = os.path.splitext(gp)[0] + ".png"
        if outdir:
            png = os.path.join(outdir, os.path.relpath(png, root))
            os.makedirs(os.path.dirname(png), exist_ok=True)
        png = os.path.abspath(png)
        r = subprocess.run([gnuplot, "-e", f"out='{png}'", os.path.basename(gp)],
                           cwd=os.path.dirname(gp), capture_output=True, text=True)
        if r.returncode != 0 or not os.path.exists(png):
            why = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"no {png} written"
            failures.append(f"{os.path.relpath(gp, root)}: gnuplot failed: {why}")
    return failures


def figures_of(root, topic):
    """Figure PNGs (paths relative to benchmarks/) of a topic's directory."""
    d = os.path.join(root, "benchmarks", "results", topic)
    return [os.path.relpath(os.path.splitext(gp)[0] + ".png", os.path.join(root, "benchmarks"))
            for gp in sorted(glob.glob(os.path.join(d, "*.gp")))]


def images_in(text):
    """Image paths a markdown text shows (![...](path))."""
    return re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", text)


# --------------------------------------------------------------------------
# benchmarks/RESULTS.md

def read_headline(path):
    rows = []
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header != HEADLINE_COLUMNS:
            raise InputError(f"{path}:1: header must be exactly {','.join(HEADLINE_COLUMNS)}")
        for row in reader:
            lineno = reader.line_num
            if not row or all(not c.strip() for c in row):
                continue
            if len(row) != len(HEADLINE_COLUMNS):
                raise InputError(f"{path}:{lineno}: {len(row)} fields, expected "
                                 f"{len(HEADLINE_COLUMNS)}")
            r = dict(zip(HEADLINE_COLUMNS, row))
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", r["date"].strip()):
                raise InputError(f"{path}:{lineno}: date must be YYYY-MM-DD")
            for key in ("cpu_s", "speedup_vs_baseline"):
                v = r[key].strip()
                if v:
                    try:
                        float(v)
                    except ValueError:
                        raise InputError(f"{path}:{lineno}: {key} '{v}' is not a number")
            r["_file"], r["_line"] = path, lineno
            rows.append(r)
    return rows


def fmt_speedup(r):
    s = r["speedup_vs_baseline"].strip()
    if not s:
        return ""
    if float(s) == 1.0:
        return "baseline"
    return cell(f"{s}× vs {r['baseline_method'].strip()}")


def benchmarks_page(root):
    res = os.path.join(root, "benchmarks", "results")
    intro_path = os.path.join(res, "intro.md")
    intro = read(intro_path).strip() if os.path.exists(intro_path) else ""
    headline_files = ordered(glob.glob(os.path.join(res, "headline", "*.csv")),
                             os.path.join(res, "sections", "ORDER"))
    sections = ordered(glob.glob(os.path.join(res, "sections", "*.md")),
                       os.path.join(res, "sections", "ORDER"))
    titles = {}
    texts = {}
    for s in sections:
        topic = os.path.splitext(os.path.basename(s))[0]
        texts[topic] = read(s).strip()
        titles[topic] = first_heading(texts[topic], os.path.relpath(s, root))

    out = ["# Benchmark results", "",
           f"*Generated by `{COMMAND}` from the data under `benchmarks/results/` "
           "(headline/*.csv, sections/*.md, the figures' scripts and CSVs); "
           "edit the data, not this page.*", ""]
    if intro:
        out += [intro, ""]

    # the figures each section shows: those its text links, then those of its
    # topic directory that no section links
    linked = {f for text in texts.values() for f in images_in(text)}
    shown = {topic: images_in(texts[topic]) + [f for f in figures_of(root, topic)
                                               if f not in linked]
             for topic in texts}

    rows = []
    for path in headline_files:
        rows += [(os.path.splitext(os.path.basename(path))[0], r) for r in read_headline(path)]
    questions = []
    for _, r in rows:
        if r["question"] not in questions:
            questions.append(r["question"])
    out += ["## Headline", ""]
    if not rows:
        out += ["(no rows yet: add `benchmarks/results/headline/<topic>.csv`)", ""]
    else:
        out += ["| problem | size | t_end (s) | method (settings) | accuracy | CPU (s) | ratio "
                "| reproduce | measured | plot |",
                "|---|---|---|---|---|---|---|---|---|---|"]
        for q in questions:
            out.append(f"| **{cell(q)}** | | | | | | | | | |")
            for topic, r in rows:
                if r["question"] != q:
                    continue
                method = f"**{cell(r['method'])}**"
                if r["settings"].strip():
                    method += f" ({cell(r['settings'])})"
                acc = cell(": ".join(x for x in (r["accuracy_metric"].strip(),
                                                  r["accuracy"].strip()) if x))
                plots = [f"[{os.path.splitext(os.path.basename(p))[0]}]({p})"
                         for p in shown.get(topic, figures_of(root, topic))]
                if topic in titles:
                    plots.append(f"[§](#{anchor(titles[topic])})")
                out.append("| " + " | ".join([
                    cell(r["problem"]), cell(r["size"]), cell(r["t_end_s"]), method, acc,
                    cell(r["cpu_s"]), fmt_speedup(r), code_cell(r["command"]),
                    cell(f"{r['date']} {r['commit']}".strip()), " ".join(plots)]) + " |")
        out += ["", "Ratio: the baseline's CPU time over this row's, at equal accuracy (empty "
                "where not comparable). CPU times are medians of repeats on a shared 2-core "
                "machine; `measured` is the date and the commit of the tree measured.", ""]

    for s in sections:
        topic = os.path.splitext(os.path.basename(s))[0]
        text = texts[topic]
        out += [text, ""]
        for fig in shown[topic]:
            if fig not in text:
                name = os.path.splitext(os.path.basename(fig))[0]
                out += [f"![{name}]({fig})", ""]
    return "\n".join(out).rstrip() + "\n"


# --------------------------------------------------------------------------
# validation/RESULTS.md

ROW = re.compile(r"^(\S+)\s+(.*?)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(pass|FAIL|ERROR)$")
TOTAL = re.compile(r"^\d+ cases, \d+ rows: .*$")


def parse_validate(path):
    lines = read(path).splitlines()
    if not lines or not lines[0].startswith("case "):
        raise InputError(f"{path}:1: not the output of `mbdae validate` (no header line)")
    cases, total = {}, None
    for lineno, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        if TOTAL.match(line):
            total = line.strip()
            continue
        m = ROW.match(line)
        if not m:
            raise InputError(f"{path}:{lineno}: unparsable line: {line.strip()[:60]}")
        name, quantity, ref, comp, err, tol, result = m.groups()
        c = cases.setdefault(name, {"rows": 0, "passed": 0, "worst": 0.0, "error": None})
        if result == "ERROR":
            c["error"] = quantity
            continue
        c["rows"] += 1
        c["passed"] += result == "pass"
        e, t = float(err[:-1]), float(tol)
        ratio = e / t if t > 0 else (0.0 if e == 0 else float("inf"))
        c["worst"] = max(c["worst"], ratio)
    if total is None:
        raise InputError(f"{path}: no closing 'N cases, N rows: ...' line")
    return cases, total, lines


def parse_cases(path):
    out = []
    for line in read(path).splitlines():
        if line.strip():
            name, _, desc = line.strip().partition(" ")
            out.append((name, desc.strip()))
    return out


def validation_page(root):
    vres = os.path.join(root, "validation", "results")
    vpath = os.path.join(vres, "validate.txt")
    cases, total, lines = parse_validate(vpath)
    listed = parse_cases(os.path.join(vres, "cases.txt"))
    intro_path = os.path.join(vres, "intro.md")
    intro = read(intro_path).strip() if os.path.exists(intro_path) else ""
    setups = ordered(glob.glob(os.path.join(vres, "setups", "*.md")),
                     os.path.join(vres, "setups", "ORDER"))
    covers = []  # (patterns, title)
    texts = []
    for s in setups:
        text = read(s).strip()
        title = first_heading(text, os.path.relpath(s, root))
        pats = []
        for m in re.finditer(r"<!--\s*cases:(.*?)-->", text, re.S):
            pats += m.group(1).split()
        covers.append((pats, title))
        texts.append(re.sub(r"\n?<!--\s*cases:.*?-->\n?", "\n", text, flags=re.S).strip())

    def setup_of(name):
        for pats, title in covers:
            if any(fnmatch.fnmatchcase(name, p) for p in pats):
                return f"[{cell(title.split(' (')[0])}](#{anchor(title)})"
        return ""

    out = ["# Validation results", "",
           f"*Generated by `{COMMAND}` from `validation/results/` (the recorded output of "
           "`build/mbdae validate` and the set-ups); edit the data, not this page. After a "
           f"change that moves a number, record it anew with `{COMMAND} --validate "
           "build/mbdae`.*", ""]
    if intro:
        out += [intro, ""]
    out += ["## All cases", "", f"`build/mbdae validate`: **{total}**", "",
            "| case | what is checked | rows | passed | worst error / tol | set-up |",
            "|---|---|---|---|---|---|"]
    names = [n for n, _ in listed] + [n for n in cases if n not in dict(listed)]
    desc = dict(listed)
    for n in names:
        c = cases.get(n)
        if not c:
            row = [code_cell(n), cell(desc.get(n, "")), "", "", "not run", setup_of(n)]
        elif c["error"]:
            row = [code_cell(n), cell(desc.get(n, "")), str(c["rows"]), str(c["passed"]),
                   cell(f"ERROR: {c['error']}"), setup_of(n)]
        else:
            w = c["worst"]
            row = [code_cell(n), cell(desc.get(n, "")), str(c["rows"]),
                   str(c["passed"]) if c["passed"] == c["rows"] else f"**{c['passed']}**",
                   "inf" if w == float("inf") else f"{w:.1e}", setup_of(n)]
        out.append("| " + " | ".join(row) + " |")
    out += ["", "Worst error / tol: the largest ratio of a row's error to its tolerance "
            "(below 1 passes; 0 where the case matches exactly). Every case also runs in "
            "the test suite (`tests/test_validation.c`, one CUnit test per case).", ""]
    for text in texts:
        out += [text, ""]
    out += ["## Full table", "",
            "`build/mbdae validate`, every row: case, quantity, reference, computed, error "
            "(r relative, a absolute), tolerance, result.", "", "```"]
    out += [l.rstrip() for l in lines]
    out += ["```"]
    return "\n".join(out).rstrip() + "\n"


# --------------------------------------------------------------------------

def record_validation(root, mbdae):
    vres = os.path.join(root, "validation", "results")
    os.makedirs(vres, exist_ok=True)
    lst = subprocess.run([mbdae, "validate", "--list"], capture_output=True, text=True)
    if lst.returncode != 0:
        raise InputError(f"{mbdae} validate --list failed: {lst.stderr.strip()}")
    run = subprocess.run([mbdae, "validate"], capture_output=True, text=True)
    if run.returncode not in (0, 1) or not run.stdout.startswith("case "):
        raise InputError(f"{mbdae} validate failed (exit {run.returncode}): "
                         f"{run.stderr.strip()[-300:]}")
    with open(os.path.join(vres, "cases.txt"), "w", encoding="utf-8") as f:
        f.write(lst.stdout)
    with open(os.path.join(vres, "validate.txt"), "w", encoding="utf-8") as f:
        f.write(run.stdout)
    if run.returncode == 1:
        print(f"results_pages: note: {mbdae} validate reports failures; recorded as they are",
              file=sys.stderr)


def check_cases(root, mbdae):
    lst = subprocess.run([mbdae, "validate", "--list"], capture_output=True, text=True)
    if lst.returncode != 0:
        return [f"{mbdae} validate --list failed: {lst.stderr.strip()}"]
    now = [l.split()[0] for l in lst.stdout.splitlines() if l.strip()]
    vres = os.path.join(root, "validation", "results")
    rec = [n for n, _ in parse_cases(os.path.join(vres, "cases.txt"))]
    ran = list(parse_validate(os.path.join(vres, "validate.txt"))[0])
    msgs = []
    if now != rec:
        msgs.append("validation/results/cases.txt lists other cases than `mbdae validate "
                    f"--list` (added: {sorted(set(now) - set(rec))}, removed: "
                    f"{sorted(set(rec) - set(now))})")
    if now != ran:
        msgs.append("validation/results/validate.txt ran other cases than `mbdae validate "
                    f"--list` names (missing: {sorted(set(now) - set(ran))}, extra: "
                    f"{sorted(set(ran) - set(now))})")
    if msgs:
        msgs.append(f"record them anew: {COMMAND} --validate build/mbdae")
    return msgs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    help="source tree (default: this script's)")
    ap.add_argument("--validate", metavar="MBDAE",
                    help="first record `MBDAE validate` and `MBDAE validate --list`")
    ap.add_argument("--check", action="store_true",
                    help="regenerate into a temporary directory, diff with the committed pages")
    ap.add_argument("--cases", metavar="MBDAE",
                    help="with --check: the recorded cases must be those of `MBDAE validate --list`")
    ap.add_argument("--no-figures", action="store_true", help="do not run the figure scripts")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    try:
        if a.validate and not a.check:
            record_validation(root, a.validate)
        pages = {BENCH_PAGE: benchmarks_page(root), VALID_PAGE: validation_page(root)}
    except (InputError, OSError, UnicodeDecodeError) as e:
        print(f"results_pages: {e}", file=sys.stderr)
        return 2
    scripts = figure_scripts(root, "benchmarks/results") + \
        figure_scripts(root, "validation/results")
    if a.check:
        bad = []
        for rel, text in pages.items():
            old = read(os.path.join(root, rel)) if os.path.exists(os.path.join(root, rel)) else ""
            if old != text:
                diff = difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                            rel + " (committed)", rel + " (regenerated)", n=1)
                sys.stdout.writelines(list(diff)[:80])
                bad.append(f"{rel} differs from what its data gives")
        if not a.no_figures:
            with tempfile.TemporaryDirectory() as tmp:
                bad += run_figures(root, scripts, tmp)
        if a.cases:
            bad += check_cases(root, a.cases)
        for b in bad:
            print(f"results_pages: {b}", file=sys.stderr)
        if bad:
            print(f"results_pages: regenerate with `{COMMAND}` and commit the pages",
                  file=sys.stderr)
            return 1
        print(f"results_pages: {len(pages)} pages match their data"
              + ("" if a.no_figures else f", {len(scripts)} figure scripts ran"))
        return 0
    failures = [] if a.no_figures else run_figures(root, scripts, None)
    for rel, text in pages.items():
        with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
            f.write(text)
    for fl in failures:
        print(f"results_pages: {fl}", file=sys.stderr)
    print(f"results_pages: wrote {', '.join(pages)}"
          + ("" if a.no_figures else f"; {len(scripts) - len(failures)} of {len(scripts)} figures"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
