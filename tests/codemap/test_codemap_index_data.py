"""What the index and the graph take from the map."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from rubi.codemap import build_code_map, graph_edges, read_text_slice, symbol_text
from rubi.codemap.index_data import drop_license_header


def test_text_slice_symbols_and_edges(make_repo: Callable[..., Path]) -> None:
    root = make_repo(
        {
            "app.py": "import util\nclass Flask:\n    def dispatch_request(self): ...\n",
            "util.py": "x = 1\n" * 100,
        }
    )
    code_map = build_code_map(root)
    assert symbol_text(code_map.files["app.py"]) == "Flask Flask.dispatch_request dispatch_request"
    # A generated file's thousands of symbols are cut to the first ones.
    assert symbol_text(code_map.files["app.py"], max_symbols=1) == "Flask"
    assert read_text_slice(root, "util.py", max_chars=15) == "x = 1\nx = 1\n"
    assert read_text_slice(root, "gone.py") == ""
    assert list(graph_edges(code_map)) == [
        ("app.py", "imports", "util.py", 1.0),
        ("app.py", "in_module", "(root)", 1.0),
        ("util.py", "in_module", "(root)", 1.0),
    ]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "/*\n * Copyright 2002-2024 the original author or authors.\n *\n"
            " * Licensed under the Apache License, Version 2.0\n */\n\npackage org.x;\n",
            "package org.x;\n",
        ),
        (  # the package comment after a blank line stays
            "// Copyright 2014 The Go Authors. All rights reserved.\n// Use of this source"
            " code is governed by a BSD-style license.\n\n// Package gin routes.\npackage gin\n",
            "// Package gin routes.\npackage gin\n",
        ),
        ("#!/usr/bin/env python\n# SPDX-License-Identifier: MIT\nimport os\n", "import os\n"),
        ("/** Frobnicates widgets. */\nclass A {}\n", None),  # a doc comment, no license
        ("# the license checker\nx = 1\n", None),  # names a license, no grant or copyright
        ("x = 1\n# Copyright 2020\n", None),  # not at the head
        ("/* Copyright 2020, never closed\nint x;\n", None),
        ("", None),
    ],
)
def test_license_headers_are_left_out_of_the_index(text: str, kept: str | None) -> None:
    assert drop_license_header(text) == (text if kept is None else kept)


def test_the_text_slice_starts_after_the_license(make_repo: Callable[..., Path]) -> None:
    header = "/*\n * Copyright 2020 Someone\n * Licensed under the MIT license.\n */\n"
    root = make_repo({"A.java": header + "package a;\nclass A {}\n"})
    assert read_text_slice(root, "A.java") == "package a;\nclass A {}\n"
    assert read_text_slice(root, "A.java", max_chars=12) == "package a;\n"
