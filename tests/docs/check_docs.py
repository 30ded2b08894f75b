#!/usr/bin/env python3
"""Checks the examples in README.md and docs/*.md against the program.

The convention (docs/development.md, "Examples that are checked"):

    ```
    $ willfit 13b -p q4 -d 8gb
    DOES NOT FIT: ...
    ...
    [exit 1]
    ```

- A fenced block whose first line starts with `$ willfit` is an example and is
  checked. Every line that starts with `$ ` is a command; the lines after it,
  up to the next command or the end of the block, are what it prints (stdout,
  then stderr).
- A last line `[exit N]` is the exit code; without it the command must exit 0.
- A line that is exactly `...` stands for any number of lines (none included)
  left out of the example.
- Trailing spaces are ignored. The command is split as a shell splits words
  (quotes), but runs without a shell: no pipes, redirections or variables.
  It runs in an empty temporary folder with a clean environment: no colour,
  no user config, ASCII (LANG=C).
- A block that shows a `$ ` command but is not checked must say so: its info
  string holds `unchecked` (```` ```text unchecked ````). Blocks without a `$ `
  prompt (a list of commands to copy) are not examples.
- Relative links must name a file that exists and, after `#`, one of its
  headings (GitHub's anchors).

Usage:
  check_docs.py --binary PATH FILE.md...     check; exit 1 on any difference
  WILLFIT_UPDATE_DOCS=1 check_docs.py ...    rewrite the outputs in place
  check_docs.py --self-test --binary PATH    the checker catches drift
"""
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^(\s*)(```+|~~~+)(.*)$")
EXIT = re.compile(r"^\[exit (\d+)\]$")
SHELL_CHARS = re.compile(r"[|<>;&`$]")


class Block:
    def __init__(self, start, end, info, lines):
        self.start = start  # index of the first content line in the file
        self.end = end      # index of the closing fence
        self.info = info
        self.lines = lines


def blocks(text_lines):
    i = 0
    while i < len(text_lines):
        m = FENCE.match(text_lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.groups()
        j = i + 1
        while j < len(text_lines) and not text_lines[j].strip().startswith(fence):
            j += 1
        content = [line[len(indent):] if line.startswith(indent) else line.lstrip()
                   for line in text_lines[i + 1:j]]
        yield Block(i + 1, j, info.strip(), content)
        i = j + 1


def examples(block):
    """[(command line, expected lines, expected exit code)] of a checked block."""
    out = []
    for line in block.lines:
        if line.startswith("$ "):
            out.append([line[2:].strip(), []])
        elif out:
            out[-1][1].append(line.rstrip())
    result = []
    for command, expected in out:
        code = 0
        while expected and expected[-1] == "":
            expected.pop()
        if expected and EXIT.match(expected[-1]):
            code = int(EXIT.match(expected[-1]).group(1))
            expected.pop()
        result.append((command, expected, code))
    return result


def run(binary, command, workdir):
    argv = shlex.split(command)
    if not argv or argv[0] != "willfit":
        raise ValueError(f"an example runs willfit, not '{argv[0] if argv else ''}'")
    env = {"PATH": "/usr/bin:/bin", "HOME": workdir, "XDG_CONFIG_HOME": os.path.join(workdir, "config"),
           "LANG": "C", "NO_COLOR": "1", "TERM": "dumb",
           # No example may reach the network: remote models answer from the cache or say so.
           "HF_HUB_OFFLINE": "1"}
    asan = os.environ.get("ASAN_OPTIONS")
    if asan is not None:
        env["ASAN_OPTIONS"] = asan
    p = subprocess.run([binary] + argv[1:], cwd=workdir, env=env, capture_output=True, timeout=120)
    text = p.stdout.decode("utf-8", "replace") + p.stderr.decode("utf-8", "replace")
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and lines[-1] == "":
        lines.pop()
    return lines, p.returncode


def chunks(expected):
    """Literal runs of lines between `...` lines."""
    parts = [[]]
    for line in expected:
        if line == "...":
            parts.append([])
        else:
            parts[-1].append(line)
    return parts


def matches(expected, actual):
    parts = chunks(expected)
    if len(parts) == 1:
        return expected == actual
    first, last, middle = parts[0], parts[-1], parts[1:-1]
    if actual[:len(first)] != first:
        return False
    if last and (len(actual) < len(first) + len(last) or actual[len(actual) - len(last):] != last):
        return False
    pos, stop = len(first), len(actual) - len(last)
    for part in middle:
        found = next((k for k in range(pos, stop - len(part) + 1) if actual[k:k + len(part)] == part), None)
        if found is None:
            return False
        pos = found + len(part)
    return True


def updated(expected, actual):
    """The expected lines rewritten from the actual output, keeping each `...`
    where it was: each kept run becomes the lines now at its place (found by
    its text, else by its first line, which usually names the section); the
    first run starts the output, and a last run not followed by `...` ends it."""
    parts = chunks(expected)
    if len(parts) == 1:
        return actual
    out, pos = [], 0
    for n, part in enumerate(parts):
        if n > 0:
            out.append("...")
        if not part:
            continue
        if n == 0:
            at = 0
        else:
            at = next((k for k in range(pos, len(actual) - len(part) + 1)
                       if actual[k:k + len(part)] == part), None)
            if at is None:  # the run changed: find where its first line is now
                best = 0.0
                for k in range(pos, len(actual)):
                    r = difflib.SequenceMatcher(None, part[0], actual[k]).ratio()
                    if r > best:
                        best, at = r, k
                if at is None or best < 0.5:
                    return actual  # cannot place it: show the whole output
        end = len(actual) if n == len(parts) - 1 else at + len(part)
        out.extend(actual[at:end])
        pos = end
    return out


def as_written(command, expected, code):
    return ["$ " + command] + expected + ([f"[exit {code}]"] if code else [])


LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(md_path):
    with open(md_path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", text, re.M)}


def check_links(path, text_lines):
    """Relative links name a file that exists and, after '#', a heading in it."""
    failures = []
    in_fence = False
    for n, line in enumerate(text_lines, 1):
        if FENCE.match(line):
            in_fence = not in_fence
        if in_fence:
            continue
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target):
                continue  # an address, not a file here
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            if not os.path.exists(dest):
                failures.append(f"{path}:{n}: the link ({target}) names a file that does not exist")
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                failures.append(f"{path}:{n}: the link ({target}) names no heading of {file_part or path}")
    return failures


def check_file(path, binary, update):
    with open(path, encoding="utf-8") as f:
        text_lines = f.read().split("\n")
    failures, count = check_links(path, text_lines), 0
    replacements = []  # (start, end, new content lines)
    with tempfile.TemporaryDirectory() as workdir:
        for block in blocks(text_lines):
            has_prompt = any(line.startswith("$ ") for line in block.lines)
            first = block.lines[0] if block.lines else ""
            where = f"{path}:{block.start}"
            if "unchecked" in block.info.split():
                continue
            if not first.startswith("$ willfit"):
                if has_prompt:
                    failures.append(f"{where}: a block with a '$ ' command must start with '$ willfit' "
                                    "(checked) or be marked ```text unchecked")
                continue
            new_content = []
            for command, expected, code in examples(block):
                count += 1
                if SHELL_CHARS.search(command.replace("$ ", "")):
                    failures.append(f"{where}: '$ {command}': checked examples run without a shell "
                                    "(no pipes, redirections or variables); mark the block unchecked")
                    new_content.extend(as_written(command, expected, code))
                    continue
                try:
                    actual, actual_code = run(binary, command, workdir)
                except (ValueError, subprocess.TimeoutExpired) as e:
                    failures.append(f"{where}: '$ {command}': {e}")
                    new_content.extend(as_written(command, expected, code))
                    continue
                new_content.append("$ " + command)
                new_content.extend(updated(expected, actual))
                if actual_code != 0:
                    new_content.append(f"[exit {actual_code}]")
                if not matches(expected, actual) or actual_code != code:
                    diff = "\n".join(difflib.unified_diff(expected, actual, "documented", "printed now",
                                                          lineterm="", n=1))
                    failures.append(f"{where}: '$ {command}' printed something else"
                                    f" (exit {actual_code}, documented {code}):\n{diff}")
            replacements.append((block.start, block.end, new_content))
    if update and failures:
        for start, end, content in reversed(replacements):
            indent = FENCE.match(text_lines[start - 1]).group(1)  # a block inside a list keeps its indent
            text_lines[start:end] = [indent + line if line else line for line in content]
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(text_lines))
    return count, failures


def self_test(binary):
    """A stale number, a wrong exit code, an unmarked output block and broken
    links must fail; the update mode must repair the first two, keeping `...`."""
    stale = ("# t\n\n```\n$ willfit 13b --precision q4 --device 8gb\n"
             "DOES NOT FIT: 13b at Q4_K_M on 8.00 GiB GPU with llama.cpp: needs 1.00 GiB\n...\n[exit 1]\n```\n\n"
             "```\n$ willfit 7b -p q4 -d 8gb\n...\n[exit 1]\n```\n")
    unmarked = "```\nsome text\n$ willfit 7b\n```\n"
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "stale.md")
        with open(path, "w", encoding="utf-8") as f:
            f.write(stale)
        n, failures = check_file(path, binary, update=False)
        assert n == 2 and len(failures) == 2, failures
        check_file(path, binary, update=True)
        n, failures = check_file(path, binary, update=False)
        assert n == 2 and not failures, failures
        with open(path, encoding="utf-8") as f:
            repaired = f.read()
        assert "\n...\n[exit 1]\n" in repaired and "needs 1.00 GiB" not in repaired, repaired
        assert repaired.count("```\n$ willfit 7b -p q4 -d 8gb\n...\n```") == 1, repaired
        with open(path, "w", encoding="utf-8") as f:
            f.write(unmarked)
        n, failures = check_file(path, binary, update=False)
        assert n == 0 and len(failures) == 1, failures
        with open(path, "w", encoding="utf-8") as f:
            f.write("# Top\n\n[a](stale.md#top) [b](nowhere.md) [c](#no-such-heading) [d](stale.md#t)\n")
        n, failures = check_file(path, binary, update=False)
        assert len(failures) == 3, failures
    print("self-test: stale output, a wrong exit code, an unmarked block and broken links are caught;"
          " update repairs the outputs")
    return 0


def main():
    args = sys.argv[1:]
    binary, files, selftest = None, [], False
    while args:
        a = args.pop(0)
        if a == "--binary":
            binary = os.path.abspath(args.pop(0))
        elif a == "--self-test":
            selftest = True
        else:
            files.append(a)
    if binary is None:
        print("usage: check_docs.py --binary PATH [--self-test] FILE.md...", file=sys.stderr)
        return 2
    if selftest:
        return self_test(binary)
    update = bool(os.environ.get("WILLFIT_UPDATE_DOCS"))
    status = 0
    for path in files:
        count, failures = check_file(path, binary, update)
        for f in failures:
            print(f)
        if failures:
            status = 1
            if update:
                print(f"{path}: rewrote the outputs; review `git diff {path}`")
        print(f"{path}: {count} examples, {len(failures)} differ")
    return 0 if update else status


if __name__ == "__main__":
    sys.exit(main())
