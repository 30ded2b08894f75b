#!/usr/bin/env python3
"""Keeps the dependency rules of ARCHITECTURE.md true of the code.

The rules are read from ARCHITECTURE.md's folder table, so the table and the
check cannot disagree: for every row whose first cell is a folder under lib/
or app/, the last cell's backticked paths are what that folder's files may
include (besides their own folder). Every folder under lib/willfit/ and app/
must have a row (a folder inside one that has a row follows that row). On top of the table:

- lib/ is pure: no I/O, environment, terminal or CLI11 headers, no calls that
  read files, the environment or print, nlohmann_json only in .cpp files, and
  the willfit_lib target links no CLI11 (its link libraries come from CMake).
- app/render/ formats reports and does not estimate: it calls none of the
  estimator's entry points.

Usage: check_architecture.py SOURCE_DIR [LIB_LINK_LIBRARIES]
Exit 0 when every rule holds; else one line per violation and exit 1.
"""
import os
import re
import sys

# Standard and POSIX headers that open files, read the environment, talk to a
# terminal or start processes. lib/ may include none of them.
IO_HEADERS = {
    "fstream", "iostream", "istream", "ostream", "cstdio", "stdio.h", "filesystem",
    "cstdlib", "stdlib.h", "syncstream", "print", "unistd.h", "fcntl.h", "dirent.h",
    "termios.h", "dlfcn.h", "spawn.h", "fmt/os.h", "fmt/ostream.h", "CLI/CLI.hpp",
}
IO_HEADER_PREFIXES = ("sys/", "CLI/", "curl/", "boost/process", "boost/asio")
# Names that do I/O, read the environment or print, whatever header they came
# from: the first group anywhere, the C functions when called.
IO_NAMES = re.compile(
    r"\b(std::getenv|std::system|std::cout|std::cerr|std::clog|std::ifstream|std::ofstream|"
    r"std::fstream|std::filesystem|fmt::print|fmt::println)\b")
IO_CALLS = re.compile(
    r"(?<![\w.>:])(getenv|secure_getenv|fopen|freopen|popen|system|printf|fprintf|puts|fputs|"
    r"fwrite|fread|isatty|open|read|write)\s*\(")
# The estimator's entry points: a renderer that calls one of them estimates.
ESTIMATOR_CALLS = [
    "estimate_inference", "estimate_speed", "estimate_training", "make_training_report",
    "make_fit_report", "suggest_changes", "which_devices", "plan_max", "max_params",
    "max_batch", "max_context", "best_precision", "make_device_sheet", "weight_bytes",
    "kv_cache_bytes", "state_bytes", "token_costs", "speed_query_for", "offload_split",
    "model_from_size", "estimate_cost", "device_set_cost", "weight_layout",
]


def strip_comments_and_strings(text):
    """Blanks comments and string/char literals, keeping line breaks."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            end = text.find(")" + (m.group(1) if m else "") + '"', i)
            j = n if end < 0 else end + len(m.group(1) if m else "") + 2
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def parse_rules(architecture_md):
    """{folder: [allowed paths]} from the folder table; folders end in '/'."""
    rules = {}
    for line in architecture_md.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3:
            continue
        m = re.fullmatch(r"`((?:lib|app)/(?:[^`]*/)?)`", cells[0])
        if not m:
            continue
        folder = m.group(1)
        allowed = []
        for token in re.findall(r"`([^`]+)`", cells[-1]):
            if folder.startswith("lib/willfit/") and not token.startswith(("lib/", "app/")):
                token = "lib/willfit/" + token  # `core/` in a lib row is a sibling folder
            if token.startswith(("lib/", "app/")):
                allowed.append(token)
        rules[folder] = allowed
    return rules


def source_files(root, top):
    for dirpath, _, names in os.walk(os.path.join(root, top)):
        for name in sorted(names):
            if name.endswith((".cpp", ".hpp", ".h")):
                yield os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")


def folder_of(path, rules):
    """The row a file belongs to: the longest folder of the table that holds it.
    app/ holds only the files directly in it."""
    best = None
    for folder in rules:
        if folder == "app/":
            if path.startswith("app/") and "/" not in path[len("app/"):]:
                best = best or folder
        elif path.startswith(folder) and (best is None or len(folder) > len(best)):
            best = folder
    return best


def allows(allowed, target):
    for a in allowed:
        if a.endswith("/"):
            if a == "app/":
                if target.startswith("app/") and "/" not in target[len("app/"):]:
                    return True
            elif target.startswith(a) or a == "lib/" and target.startswith("lib/"):
                return True
        elif target == a:
            return True
    return False


def main():
    root = sys.argv[1]
    lib_links = sys.argv[2] if len(sys.argv) > 2 else ""
    problems = []

    if "CLI11" in lib_links:
        problems.append(f"willfit_lib links CLI11 ({lib_links}): lib/ must not parse command lines")

    with open(os.path.join(root, "ARCHITECTURE.md"), encoding="utf-8") as f:
        rules = parse_rules(f.read())
    for top in ("lib/willfit", "app"):
        for dirpath, dirnames, _ in os.walk(os.path.join(root, top)):
            for d in dirnames:
                rel = os.path.relpath(os.path.join(dirpath, d), root).replace(os.sep, "/") + "/"
                if not any(rel.startswith(f) for f in rules if f != "app/"):  # a row, or one above it
                    problems.append(f"ARCHITECTURE.md: no row for the folder `{rel}` (what it holds, what it may depend on)")
    for folder in rules:
        if not os.path.isdir(os.path.join(root, folder)):
            problems.append(f"ARCHITECTURE.md: a row names `{folder}`, which does not exist")

    include_re = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
    for top in ("lib/willfit", "app"):
        for path in source_files(root, top):
            with open(os.path.join(root, path), encoding="utf-8") as f:
                text = f.read()
            folder = folder_of(path, rules)
            if folder is None:
                continue  # reported above as a folder without a row
            allowed = rules[folder] + [folder]
            for m in include_re.finditer(text):
                kind, name = m.group(1), m.group(2)
                line = text.count("\n", 0, m.start()) + 1
                where = f"{path}:{line}"
                if path.startswith("lib/"):
                    if name in IO_HEADERS or name.startswith(IO_HEADER_PREFIXES):
                        problems.append(f"{where}: lib/ includes <{name}>: lib is pure (no files, environment, terminal or CLI11)")
                    if name.startswith("nlohmann/") and path.endswith((".hpp", ".h")):
                        problems.append(f"{where}: a lib header includes <{name}>: nlohmann_json stays in .cpp files")
                if kind != '"':
                    continue
                if name.startswith("willfit/"):
                    target = "lib/" + name
                elif path.startswith("app/"):
                    target = "app/" + name
                else:
                    target = os.path.normpath(os.path.join(os.path.dirname(path), name))
                if not allows(allowed, target):
                    problems.append(f"{where}: `{folder}` includes {target}, but ARCHITECTURE.md lets it depend only on "
                                    + ", ".join(f"`{a}`" for a in rules[folder]))
            code = strip_comments_and_strings(text)
            if path.startswith("lib/"):
                for m in list(IO_NAMES.finditer(code)) + list(IO_CALLS.finditer(code)):
                    line = code.count("\n", 0, m.start()) + 1
                    problems.append(f"{path}:{line}: lib/ uses {m.group(1)}: lib does no I/O, reads no environment, prints nothing")
            if path.startswith("app/render/"):
                for name in ESTIMATOR_CALLS:
                    for m in re.finditer(r"(?<![\w.>])" + name + r"\s*\(", code):
                        line = code.count("\n", 0, m.start()) + 1
                        problems.append(f"{path}:{line}: app/render calls {name}(): renderers format reports and do not estimate")

    for p in problems:
        print(p)
    checked = sum(1 for top in ("lib/willfit", "app") for _ in source_files(root, top))
    print(f"architecture: {checked} files, {len(rules)} folders, {len(problems)} violations")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
