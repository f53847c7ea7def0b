"""Go, Rust, Java/Kotlin, PHP, Ruby, C/C++, CSS/SCSS and Dart: known import graphs."""

from __future__ import annotations

import json
from collections.abc import Callable

from codemap.codemap_helpers import edges_of
from rubi.codemap import CodeMap
from rubi.codemap.lang import golang, rust
from rubi.codemap.lang.rust import expand_use

Build = Callable[..., CodeMap]


def test_go_module_packages_and_same_package_references(build: Build) -> None:
    code_map = build(
        {
            "go.mod": "module example.com/tool\n\ngo 1.22\n",
            "command.go": "package tool\n\ntype Command struct{}\n\n"
            "func (c *Command) Execute() error { return nil }\n",
            "args.go": "package tool\n\nfunc NoArgs(c *Command) error { return c.Execute() }\n",
            "args_test.go": 'package tool\n\nimport "testing"\n\n'
            "func TestNoArgs(t *testing.T) { NoArgs(&Command{}) }\n",
            "doc/man.go": 'package doc\n\nimport (\n\t"fmt"\n\ttool "example.com/tool"\n'
            '\t"github.com/x/md2man"\n)\n\nfunc Gen(c *tool.Command) { fmt.Println(md2man.X) }\n',
        }
    )
    edges = code_map.edges
    # an import of a package leads to its non-test files that define a name it uses
    # (``tool.Command``), not to every file of the folder
    assert edges[("doc/man.go", "command.go")] == 1.0
    assert ("doc/man.go", "args.go") not in edges
    # files of one package use each other's names without imports
    assert ("args.go", "command.go") in edges
    assert ("args_test.go", "command.go") in edges and ("args_test.go", "args.go") in edges
    assert ("command.go", "args.go") not in edges
    assert code_map.files["doc/man.go"].external == ("github.com/x/md2man",)
    assert code_map.ranked_files()[0] == "command.go"


def test_a_go_import_shares_its_weight_among_the_files_whose_names_it_uses(
    build: Build,
) -> None:
    code_map = build(
        {
            "go.mod": "module example.com/app\n\ngo 1.22\n",
            "errors/errors.go": "package errors\n\nfunc New(s string) error { return nil }\n",
            "errors/task.go": "package errors\n\ntype TaskNotFoundError struct{}\n",
            "errors/rc.go": "package errors\n\ntype RCNotFoundError struct{}\n\n"
            "func (e RCNotFoundError) Code() int { return 1 }\n",
            "logger.go": 'package app\n\nimport "example.com/app/errors"\n\n'
            'var ErrNo = errors.New("no")\n',
            "run.go": 'package app\n\nimport "example.com/app/errors"\n\n'
            'func Run() error { _ = errors.TaskNotFoundError{}; return errors.New("x") }\n',
            "plugins.go": 'package app\n\nimport _ "example.com/app/errors"\n',
            # ``Code`` is a method: ``errors.Code`` cannot name it
            "code.go": 'package app\n\nimport "example.com/app/errors"\n\n'
            'func Code() int { return errors.New("c") == nil }\n',
        }
    )
    edges = code_map.edges
    assert edges[("logger.go", "errors/errors.go")] == 1.0
    assert ("logger.go", "errors/rc.go") not in edges
    assert ("logger.go", "errors/task.go") not in edges
    assert edges[("run.go", "errors/errors.go")] == 0.5
    assert edges[("run.go", "errors/task.go")] == 0.5
    assert ("code.go", "errors/rc.go") not in edges
    # an import for its side effects names nothing: it goes to every file, as before
    assert {d for s, d in edges if s == "plugins.go"} == {
        "errors/errors.go",
        "errors/rc.go",
        "errors/task.go",
    }
    assert code_map.in_degree["errors/rc.go"] == 1


def test_go_symbols() -> None:
    parsed = golang.parse(
        "package x\n\ntype (\n\tA struct{}\n\tB interface{}\n)\n\nconst Max = 3\n\n"
        "var (\n\tdebug = false\n)\n\nfunc New[T any]() {}\n\n"
        "func (a *A) Run() {}\n\n// func Commented() {}\n"
    )
    assert [(s.name, s.kind) for s in parsed.symbols] == [
        ("A", "struct"),
        ("B", "interface"),
        ("Max", "const"),
        ("debug", "variable"),
        ("New", "function"),
        ("A.Run", "method"),
    ]
    assert parsed.package == "x"


def test_go_declarations_of_several_names_define_each_name(build: Build) -> None:
    parsed = golang.parse(
        "package x\n\nvar ErrY, ErrZ = 1, 2\nvar a, _ = f()\n\n"
        "const (\n\tA, B = 1, 2\n\tC\n)\n\nvar (\n\tx, y int\n\tg = func(p, q int) {\n"
        "\t\treturn\n\t}\n)\n"
    )
    assert [(s.name, s.kind, s.line) for s in parsed.symbols] == [
        ("ErrY", "variable", 3),
        ("ErrZ", "variable", 3),
        ("a", "variable", 4),
        ("A", "const", 7),
        ("B", "const", 7),
        ("C", "const", 8),
        ("x", "variable", 12),
        ("y", "variable", 12),
        ("g", "variable", 13),
    ]
    # an importer that uses only the second name leads to the file that defines it
    code_map = build(
        {
            "go.mod": "module example.com/app\n\ngo 1.22\n",
            "errs/a.go": "package errs\n\nvar ErrY, ErrZ = New(1), New(2)\n",
            "errs/b.go": "package errs\n\nconst (\n\tCodeA, CodeB = 1, 2\n)\n",
            "errs/new.go": "package errs\n\nfunc New(c int) error { return nil }\n",
            "use.go": 'package app\n\nimport "example.com/app/errs"\n\nvar _ = errs.ErrZ\n',
            "code.go": 'package app\n\nimport "example.com/app/errs"\n\nvar _ = errs.CodeB\n',
        }
    )
    assert {d for s, d in code_map.edges if s == "use.go"} == {"errs/a.go"}
    assert {d for s, d in code_map.edges if s == "code.go"} == {"errs/b.go"}


def test_rust_crates_mods_uses_and_workspace(build: Build) -> None:
    code_map = build(
        {
            "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\n\n[package]\nname = "rg"\n\n'
            '[[bin]]\nname = "rg"\npath = "crates/core/main.rs"\n',
            "crates/core/main.rs": "mod flags;\nuse grep_searcher::Searcher;\nuse anyhow::Result;\n"
            "fn main() { flags::parse(); }\n",
            "crates/core/flags/mod.rs": "mod defs;\npub use self::defs::Flag;\n"
            "pub fn parse() { crate::flags::defs::all(); }\n",
            "crates/core/flags/defs.rs": "use super::parse;\nuse std::io;\npub struct Flag;\n"
            'pub fn all() { let s = "use not::real;"; }\n',
            "crates/searcher/Cargo.toml": '[package]\nname = "grep-searcher"\n',
            "crates/searcher/src/lib.rs": "mod sink;\n"
            "pub use crate::sink::{Sink, SinkError as E};\npub struct Searcher;\n",
            "crates/searcher/src/sink.rs": "pub trait Sink {}\n",
            "crates/searcher/tests/it.rs": "use grep_searcher::sink::Sink;\n",
        }
    )
    assert edges_of(code_map) == {
        ("crates/core/main.rs", "crates/core/flags/mod.rs"),
        ("crates/core/main.rs", "crates/searcher/src/lib.rs"),
        ("crates/core/flags/mod.rs", "crates/core/flags/defs.rs"),
        ("crates/core/flags/defs.rs", "crates/core/flags/mod.rs"),
        ("crates/searcher/src/lib.rs", "crates/searcher/src/sink.rs"),
        ("crates/searcher/tests/it.rs", "crates/searcher/src/sink.rs"),
    }
    assert code_map.files["crates/core/main.rs"].external == ("anyhow",)
    assert code_map.files["crates/core/flags/defs.rs"].external == ()  # std, and a string


def test_rust_use_trees_and_symbols() -> None:
    assert expand_use("crate::{a, b::{c, d as e}, self}") == [
        "crate::a",
        "crate::b::c",
        "crate::b::d",
        "crate",
    ]
    assert expand_use("aho_corasick::AhoCorasick as AC") == ["aho_corasick::AhoCorasick"]
    parsed = rust.parse(
        "pub struct Searcher;\nimpl Searcher {\n    pub fn new() -> Self { Searcher }\n}\n"
        "pub(crate) enum Mode { A }\nmacro_rules! m { () => {} }\n"
        "let c = '\"'; fn after_char() {}\n"
    )
    names = [(s.name, s.kind) for s in parsed.symbols]
    assert ("Searcher", "struct") in names and ("Searcher.new", "method") in names
    assert ("Mode", "enum") in names and ("m", "macro") in names


def test_java_and_kotlin_packages(build: Build) -> None:
    root = "src/main/java/com/acme"
    code_map = build(
        {
            "pom.xml": "<project/>",
            f"{root}/util/Assert.java": "package com.acme.util;\npublic final class Assert {\n"
            "    public static void notNull(Object o) {}\n}\n",
            f"{root}/core/Engine.java": "package com.acme.core;\n\nimport com.acme.util.Assert;\n"
            "import static com.acme.util.Assert.notNull;\nimport org.junit.jupiter.api.Test;\n"
            "import java.util.List;\n\npublic class Engine { Helper h; }\n",
            f"{root}/core/Helper.java": "package com.acme.core;\nclass Helper {}\n",
            "src/main/kotlin/com/acme/core/Ext.kt": "package com.acme.core\n\n"
            "import com.acme.util.*\n\nfun Engine.run() = Helper()\n",
        }
    )
    assert edges_of(code_map) == {
        (f"{root}/core/Engine.java", f"{root}/util/Assert.java"),
        (f"{root}/core/Engine.java", f"{root}/core/Helper.java"),  # same package
        ("src/main/kotlin/com/acme/core/Ext.kt", f"{root}/util/Assert.java"),  # wildcard
        ("src/main/kotlin/com/acme/core/Ext.kt", f"{root}/core/Helper.java"),
        ("src/main/kotlin/com/acme/core/Ext.kt", f"{root}/core/Engine.java"),
    }
    assert code_map.files[f"{root}/core/Engine.java"].external == ("org.junit.jupiter.api",)
    symbols = {s.name for s in code_map.files[f"{root}/util/Assert.java"].symbols}
    assert symbols == {"Assert", "Assert.notNull"}
    # src/main/java and src/main/kotlin of one package form one module
    assert code_map.files["src/main/kotlin/com/acme/core/Ext.kt"].module == "core"
    assert code_map.files[f"{root}/core/Engine.java"].module == "core"


def test_php_psr4_namespaces_and_requires(build: Build) -> None:
    composer = {"autoload": {"psr-4": {"App\\": "src/"}}}
    code_map = build(
        {
            "composer.json": json.dumps(composer),
            "src/Http/Kernel.php": "<?php\nnamespace App\\Http;\n\nuse App\\Models\\{User, Post};\n"
            "use Symfony\\Component\\HttpFoundation\\Request;\nuse Exception;\n\n"
            "class Kernel {\n    use Middleware;\n    public function handle() {}\n}\n",
            "src/Http/Middleware.php": "<?php\nnamespace App\\Http;\ntrait Middleware {}\n",
            "src/Models/User.php": "<?php\nnamespace App\\Models;\nclass User {}\n",
            "src/Models/Post.php": "<?php\nnamespace App\\Models;\nclass Post {}\n",
            "public/index.php": "<?php\nrequire __DIR__ . '/../bootstrap.php';\n",
            "bootstrap.php": "<?php\nrequire_once 'vendor/autoload.php';\n",
        }
    )
    assert edges_of(code_map) == {
        ("src/Http/Kernel.php", "src/Models/User.php"),
        ("src/Http/Kernel.php", "src/Models/Post.php"),
        ("src/Http/Kernel.php", "src/Http/Middleware.php"),
        ("public/index.php", "bootstrap.php"),
    }
    assert code_map.files["src/Http/Kernel.php"].external == ("Symfony\\Component",)


def test_ruby_requires(build: Build) -> None:
    code_map = build(
        {
            "lib/tool.rb": "require 'json'\nrequire 'tool/version'\nrequire 'rack'\n"
            "module Tool\n  class Runner\n    def call; end\n  end\nend\n",
            "lib/tool/version.rb": "module Tool\n  VERSION = '1'\nend\n",
            "spec/tool_spec.rb": "require_relative '../lib/tool'\n",
        }
    )
    assert edges_of(code_map) == {
        ("lib/tool.rb", "lib/tool/version.rb"),
        ("spec/tool_spec.rb", "lib/tool.rb"),
    }
    assert code_map.files["lib/tool.rb"].external == ("rack",)
    names = {s.name for s in code_map.files["lib/tool.rb"].symbols}
    assert {"Tool", "Runner", "Runner.call"} <= names


def test_c_includes(build: Build) -> None:
    code_map = build(
        {
            "include/lib/api.h": "#ifndef API_H\ntypedef struct point point_t;\n#endif\n",
            "src/api.c": '#include "lib/api.h"\n#include <stdio.h>\n#include <zlib/zlib.h>\n'
            "int api_init(void)\n{\n  return 0;\n}\n",
            "src/util.h": "int util(void);\n",
            "src/main.c": '#include "util.h"\n#include "missing.h"\nint main(void) { return 0; }\n',
        }
    )
    assert edges_of(code_map) == {
        ("src/api.c", "include/lib/api.h"),
        ("src/main.c", "src/util.h"),
    }
    assert code_map.files["src/api.c"].external == ("zlib",)
    assert code_map.files["src/main.c"].external == ("missing.h",)
    assert [s.name for s in code_map.files["src/api.c"].symbols] == ["api_init"]


# Shaped as spdlog's headers (MIT): a class declared in ``sink.h``, its members defined
# out of class, qualified, in ``sink-inl.h``; a template's members in ``base_sink-inl.h``;
# members defined in a class body, indented inside a namespace.
_SINK_INL = """#pragma once
#include <spdlog/sinks/sink.h>

SPDLOG_INLINE bool spdlog::sinks::sink::should_log(spdlog::level::level_enum msg_level) const {
    return msg_level >= level_.load(std::memory_order_relaxed);
}
"""
_BASE_SINK_INL = """template <typename Mutex>
SPDLOG_INLINE spdlog::sinks::base_sink<Mutex>::base_sink()
    : formatter_{details::make_unique<spdlog::pattern_formatter>()} {}

template <typename Mutex>
void SPDLOG_INLINE spdlog::sinks::base_sink<Mutex>::flush() {
    std::lock_guard<Mutex> lock(mutex_);
    flush_();
}
"""
_QT_SINK = """namespace spdlog {
namespace sinks {
template <typename Mutex>
class qt_sink : public base_sink<Mutex> {
public:
    qt_sink(QObject *qt_object, std::string meta_method)
        : qt_object_(qt_object), meta_method_(std::move(meta_method)) {
        if (!qt_object_) {
            throw_spdlog_ex("qt_sink: qt_object is null");
        }
    }
    ~qt_sink() override { flush_(); }

protected:
    void sink_it_(const details::log_msg &msg) override {
        SPDLOG_TRY {
            QMetaObject::invokeMethod(qt_object_, [this]() { flush_(); });
        }
    }
    auto level_color(level::level_enum level) const -> QColor { return colors_[level]; }
    void flush_() SPDLOG_NOEXCEPT(true) {}
};
}  // namespace sinks
}  // namespace spdlog
"""


def test_cpp_members_are_symbols_by_their_own_name() -> None:
    from rubi.codemap.lang import parse_source
    from rubi.codemap.model import CodeFile
    from rubi.graph.code import file_name_keys

    sink = parse_source("c", _SINK_INL)  # a ``.h`` file is mapped as C
    assert [s.name for s in sink.symbols] == ["spdlog.sinks.sink.should_log"]
    file = CodeFile("sink-inl.h", "c", 0, "", "", (), (), sink.symbols)
    keys = file_name_keys("sink-inl.h", file)
    assert "should_log" in keys  # a query naming the member finds its definition
    names = [s.name for s in parse_source("c", _BASE_SINK_INL).symbols]
    assert names == ["spdlog.sinks.base_sink.base_sink", "spdlog.sinks.base_sink.flush"]
    qt = [(s.name, s.kind) for s in parse_source("cpp", _QT_SINK).symbols]
    # the class and the members defined in its body (a constructor with initialisers, a
    # trailing return type); no control statement, macro block or call with a lambda
    assert qt == [
        ("qt_sink", "class"),
        ("~qt_sink", "function"),
        ("sink_it_", "function"),
        ("level_color", "function"),
        ("flush_", "function"),
    ]


def test_cpp_definitions_take_linear_time_on_hostile_input() -> None:
    from rubi.codemap.lang import parse_source

    # each of these backtracked exponentially in a draft of the C++ rule
    for text in (
        "namespace x {\n    f() : " + "a(b), " * 40 + ";\n",
        "namespace x {\n    f() " + "&" * 40 + ";\n",
        "namespace x {\n    f() " + "ABC " * 40 + ";\n",
    ):
        assert parse_source("cpp", text).symbols == ()


def test_c_keeps_column_zero_definitions() -> None:
    from rubi.codemap.lang import parse_source

    text = "int api_init(void)\n{\n  if (x) {\n    run(x) {\n  }\n  return 0;\n}\n"
    assert [s.name for s in parse_source("c", text).symbols] == ["api_init"]


def test_styles_partials_and_urls(build: Build) -> None:
    code_map = build(
        {
            "styles/main.scss": "@use 'sass:math';\n@use 'base';\n@import 'components/button', "
            "'lib/reset.css';\n@import url(https://fonts.example.com/x.css);\n"
            "// @import 'commented';\n",
            "styles/_base.scss": "$primary: blue;\n@mixin card {}\n",
            "styles/components/_index.scss": "@forward 'button';\n",
            "styles/components/button.scss": ".btn {}\n",
            "styles/lib/reset.css": "* {}\n",
        }
    )
    assert edges_of(code_map) == {
        ("styles/main.scss", "styles/_base.scss"),
        ("styles/main.scss", "styles/components/button.scss"),
        ("styles/main.scss", "styles/lib/reset.css"),
        ("styles/components/_index.scss", "styles/components/button.scss"),
    }
    assert code_map.files["styles/main.scss"].external == ("https://fonts.example.com/x.css",)
    assert {s.name for s in code_map.files["styles/_base.scss"].symbols} == {"primary", "card"}


def test_dart_package_and_relative_imports(build: Build) -> None:
    code_map = build(
        {
            "pubspec.yaml": "name: my_app\n",
            "lib/main.dart": "import 'dart:async';\nimport 'package:my_app/src/widget.dart';\n"
            "import 'package:flutter/material.dart';\npart 'main.g.dart';\n"
            "class App {}\nvoid main() {}\n",
            "lib/main.g.dart": "part of 'main.dart';\n",
            "lib/src/widget.dart": "import '../util.dart';\nclass Widget {}\n",
            "lib/util.dart": "const version = '1';\n",
        }
    )
    assert edges_of(code_map) == {
        ("lib/main.dart", "lib/src/widget.dart"),
        ("lib/main.dart", "lib/main.g.dart"),
        ("lib/src/widget.dart", "lib/util.dart"),
    }
    assert code_map.files["lib/main.dart"].external == ("flutter",)
    assert {s.name for s in code_map.files["lib/main.dart"].symbols} == {"App", "main"}
