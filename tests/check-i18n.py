#!/usr/bin/env python3
# check-i18n.py SOURCE_ROOT: every user-facing string literal in core/, ui/
# and app/ is marked for translation.  "User-facing" means the message or
# format argument of the calls below (errors, messages on stderr and stdout,
# option descriptions, labels, titles, tooltips), and the description and
# argument name of every GOptionEntry.  A literal counts as marked inside
# _(), N_(), C_(), NC_(), Q_(), ngettext () and friends; a literal with no
# word in it ("%s\n", "—") needs no translation.  Deliberate exceptions
# (program names, machine output) are listed in tests/i18n-allowlist.txt as
# "PATH<TAB>LITERAL" with LITERAL spelled as in the source.
#
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import re
import sys

# Function -> indexes (0-based) of its arguments that are shown to a user.
CALLS = {
    # messages and errors
    "g_printerr": [0], "g_print": [0], "printf": [0], "fprintf": [1],
    "fputs": [0], "puts": [0],
    "g_set_error": [3], "g_set_error_literal": [3],
    "g_prefix_error": [1], "g_prefix_error_literal": [1],
    "g_propagate_prefixed_error": [2],
    "ds_cli_complain": [1],
    # option parsing
    "g_option_context_new": [0], "g_option_context_set_summary": [1],
    "g_option_context_set_description": [1],
    # widgets
    "gtk_label_new": [0], "gtk_label_new_with_mnemonic": [0],
    "gtk_label_set_text": [1], "gtk_label_set_label": [1],
    "gtk_label_set_markup": [1], "gtk_label_set_text_with_mnemonic": [1],
    "gtk_button_new_with_label": [0], "gtk_button_new_with_mnemonic": [0],
    "gtk_button_set_label": [1], "gtk_check_button_new_with_label": [0],
    "gtk_check_button_new_with_mnemonic": [0], "gtk_check_button_set_label": [1],
    "gtk_widget_set_tooltip_text": [1], "gtk_widget_set_tooltip_markup": [1],
    "gtk_window_set_title": [1], "gtk_column_view_column_new": [0],
    "gtk_file_filter_set_name": [1], "gtk_string_list_append": [1],
    "gtk_file_chooser_native_new": [0, 3, 4],
    "g_menu_append": [1], "g_menu_item_new": [0], "g_menu_append_section": [1],
    "g_menu_append_submenu": [1],
    "adw_window_title_new": [0, 1], "adw_window_title_set_title": [1],
    "adw_window_title_set_subtitle": [1],
    "adw_preferences_row_set_title": [1], "adw_action_row_set_subtitle": [1],
    "adw_preferences_group_set_title": [1],
    "adw_preferences_group_set_description": [1],
    "adw_status_page_set_title": [1], "adw_status_page_set_description": [1],
    "adw_toast_new": [0], "adw_toast_new_format": [0],
    "adw_message_dialog_new": [1, 2], "adw_message_dialog_format_heading": [1],
    "adw_message_dialog_format_body": [1], "adw_message_dialog_set_heading": [1],
    "adw_message_dialog_set_body": [1], "adw_message_dialog_add_response": [2],
    "adw_expander_row_set_subtitle": [1], "adw_banner_new": [0],
}
MARKERS = {"_", "N_", "C_", "NC_", "Q_", "ngettext", "g_dngettext",
           "g_dpgettext", "g_dpgettext2", "dgettext", "gettext", "dngettext"}
WORD = re.compile(r"[A-Za-z]{2,}")
TOKEN = re.compile(r"""
    (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<pre>^[ \t]*\#(?:\\\n|[^\n])*)
  | (?P<string>(?:u8|[LuU])?"(?:\\.|[^"\\\n])*")
  | (?P<char>'(?:\\.|[^'\\\n])*')
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<space>\s+)
  | (?P<punct>.)
""", re.S | re.M | re.X)


def tokens(text):
    line = 1
    out = []
    for m in TOKEN.finditer(text):
        kind = m.lastgroup
        if kind not in ("comment", "pre", "space"):
            out.append((kind, m.group(), line, m.start(), m.end()))
        line += m.group().count("\n")
    return out


def split_args(toks, start):
    """toks[start] is '('; returns (list of argument token lists, end index)."""
    args, cur, depth = [], [], 0
    i = start
    while i < len(toks):
        kind, text = toks[i][0], toks[i][1]
        if text in "([{" and kind == "punct":
            depth += 1
            if depth > 1:
                cur.append(toks[i])
        elif text in ")]}" and kind == "punct":
            depth -= 1
            if depth == 0:
                args.append(cur)
                return args, i
            cur.append(toks[i])
        elif text == "," and kind == "punct" and depth == 1:
            args.append(cur)
            cur = []
        else:
            cur.append(toks[i])
        i += 1
    return args, i


def unmarked(arg):
    """String literals in @arg that are not inside a marker, joined runs."""
    found = []
    i = 0
    while i < len(arg):
        kind, text, line = arg[i][0], arg[i][1], arg[i][2]
        if (kind == "ident" and text in MARKERS and i + 1 < len(arg)
                and arg[i + 1][1] == "("):
            depth = 0
            i += 1
            while i < len(arg):
                if arg[i][1] == "(":
                    depth += 1
                elif arg[i][1] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                i += 1
        elif kind == "string":
            run = [text]
            start = arg[i][3]
            while i + 1 < len(arg) and arg[i + 1][0] == "string":
                i += 1
                run.append(arg[i][1])
            found.append((line, " ".join(run), (start, arg[i][4])))
        i += 1
    return found


def option_entry_args(toks, i):
    """toks[i] is G_OPTION_ARG_*, followed by ','; returns the description
    and arg_description token lists of that entry."""
    fields, cur, depth = [], [], 0
    j = i + 2
    while j < len(toks) and len(fields) < 3:
        kind, text = toks[j][0], toks[j][1]
        if kind == "punct" and text in "([{":
            depth += 1
        elif kind == "punct" and text in ")]}":
            if depth == 0:
                fields.append(cur)
                break
            depth -= 1
        elif kind == "punct" and text == "," and depth == 0:
            fields.append(cur)
            cur = []
            j += 1
            continue
        cur.append(toks[j])
        j += 1
    return fields[1:3]


def find_unmarked(toks):
    """(line, call, literal, (start, end)) for each unmarked literal."""
    problems = []
    for i, (kind, text, line, _, _) in enumerate(toks):
        if kind != "ident":
            continue
        if text in CALLS and i + 1 < len(toks) and toks[i + 1][1] == "(" \
                and not (i > 0 and toks[i - 1][1] in ("->", ".")):
            args, _ = split_args(toks, i + 1)
            for n in CALLS[text]:
                if n < len(args):
                    for where, literal, span in unmarked(args[n]):
                        problems.append((where, text, literal, span))
        elif text.startswith("G_OPTION_ARG_") and i + 1 < len(toks) \
                and toks[i + 1][1] == ",":
            for arg in option_entry_args(toks, i):
                for where, literal, span in unmarked(arg):
                    problems.append((where, "GOptionEntry", literal, span))
    return problems


# A GLib format macro glued into a marked string: xgettext cuts the msgid
# at the macro, so no translation ever matches it (use PRIu64 and the like,
# which xgettext understands).
GLUED_MACRO = re.compile(r'N?_\s*\(\s*"(?:[^"\\]|\\.)*"\s*G_G?U?INT(?:8|16|32|64|PTR|SIZE)_FORMAT')


def check_file(path, rel, allow):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    toks = tokens(text)
    out = []
    for m in GLUED_MACRO.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        out.append(f"{rel}:{line}: a G_*_FORMAT macro inside _() cuts the msgid short "
                   "(use PRIu64 and friends)")
    for where, call, literal, _ in find_unmarked(toks):
        if not WORD.search(literal.replace("\\n", " ").replace("\\t", " ")):
            continue
        if (rel, literal) in allow:
            allow[(rel, literal)] = True
            continue
        out.append(f"{rel}:{where}: {call}: {literal} is not marked for translation")
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    allow = {}
    with open(os.path.join(root, "tests", "i18n-allowlist.txt"), encoding="utf-8") as f:
        for raw in f:
            raw = raw.rstrip("\n")
            if raw and not raw.startswith("#"):
                rel, literal = raw.split("\t", 1)
                allow[(rel, literal)] = False
    problems = []
    for top in ("core", "ui", "app"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if name.endswith(".c"):
                    path = os.path.join(dirpath, name)
                    problems += check_file(path, os.path.relpath(path, root), allow)
    for (rel, literal), used in allow.items():
        if not used:
            problems.append(f"tests/i18n-allowlist.txt: {rel}\t{literal} matches nothing: remove it")
    for p in sorted(problems):
        print(p)
    if problems:
        print(f"{len(problems)} user-facing strings not marked for translation "
              "(wrap them in _() or N_(), or list a deliberate exception in "
              "tests/i18n-allowlist.txt)")
        return 1
    print("every user-facing string in core/, ui/ and app/ is marked for translation")
    return 0


if __name__ == "__main__":
    sys.exit(main())
