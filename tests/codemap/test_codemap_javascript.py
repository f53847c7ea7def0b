"""JavaScript/TypeScript: specifier forms, probing, tsconfig aliases, workspace packages."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from codemap.codemap_helpers import edges_of
from rubi.codemap import CodeMap
from rubi.codemap.lang.javascript import parse

Build = Callable[..., CodeMap]


def test_parse_every_import_form_and_ignores_comments() -> None:
    parsed = parse(
        "import a from './a'\n"
        "import type { B } from '../b'\n"
        'import {\n  c,\n  d as e,\n} from "./multi"\n'
        "import './side-effect'\n"
        "export * from './star'\n"
        "export { f } from './named'\n"
        "const g = require('g-pkg')\n"
        "const h = await import('./lazy')\n"
        "import x = require('./ts-require')\n"
        "foo.import('./not-an-import')\n"
        "/** import { z } from '@/in-a-comment' */\n"
        "// import y from './line-comment'\n"
        "const code = `import q from './in-a-template'`\n"
        "const test = { code: \"import r from '../in-a-string'\" }\n"
        "const url = 'http://example.com/x'\n"
    )
    assert [(s.kind, s.target) for s in parsed.imports] == [
        ("import", "./a"),
        ("import", "../b"),
        ("import", "./multi"),
        ("import", "./side-effect"),
        ("export", "./star"),
        ("export", "./named"),
        ("require", "g-pkg"),
        ("dynamic", "./lazy"),
        ("require", "./ts-require"),
    ]


def test_parse_symbols() -> None:
    parsed = parse(
        "export class SmartRouter<T> implements Router<T> {\n"
        "  name: string = 'x'\n"
        "  add(method: string, path: string): void {}\n"
        "  async match(path: string) {\n"
        "    if (x) {}\n"
        "  }\n"
        "}\n"
        "export default function dispatch() {}\n"
        "export const VERSION = '1'\n"
        "export type Handler = () => void\n"
        "export interface Env {}\n"
        "export enum Kind { A }\n"
        "function internal() {}\n"
        "const notExported = 1\n"
        "export { internal as publicName }\n"
        "exports.legacy = 1\n"
    )
    symbols = {(s.name, s.kind) for s in parsed.symbols}
    assert {
        ("SmartRouter", "class"),
        ("SmartRouter.add", "method"),
        ("SmartRouter.match", "method"),
        ("dispatch", "function"),
        ("VERSION", "const"),
        ("Handler", "type"),
        ("Env", "interface"),
        ("Kind", "enum"),
        ("internal", "function"),
        ("publicName", "variable"),
        ("legacy", "variable"),
    } == symbols


def test_relative_probing_index_and_js_to_ts(build: Build) -> None:
    code_map = build(
        {
            "src/index.ts": "export * from './router'\nexport { Hono } from './hono.js'\n",
            "src/hono.ts": "import { Context } from './context'\nimport data from './data.json'\n",
            "src/context.ts": "import type { Env } from './types/index.js'\n",
            "src/router/index.ts": "export * from './trie'\n",
            "src/router/trie.tsx": "import * as fs from 'node:fs'\nimport path from 'path'\n",
            "src/types/index.ts": "export type Env = {}\n",
            "src/data.json": "{}",
            "src/app.js": "const h = require('./hono')\nimport('./missing')\nimport 'left-pad'\n",
            "src/styles.ts": "import './theme.css'\n",
            "src/theme.css": "body {}\n",
        }
    )
    assert edges_of(code_map) == {
        ("src/index.ts", "src/router/index.ts"),
        ("src/index.ts", "src/hono.ts"),
        ("src/hono.ts", "src/context.ts"),
        ("src/context.ts", "src/types/index.ts"),
        ("src/router/index.ts", "src/router/trie.tsx"),
        ("src/app.js", "src/hono.ts"),
        ("src/styles.ts", "src/theme.css"),
    }
    assert code_map.files["src/router/trie.tsx"].external == ()  # Node built-ins
    assert code_map.files["src/app.js"].external == ("./missing", "left-pad")
    assert code_map.files["src/hono.ts"].external == ()  # a JSON file in the repo


def test_tsconfig_paths_baseurl_and_extends(build: Build) -> None:
    base = {"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["src/*"], "~lib": ["lib/main"]}}}
    code_map = build(
        {
            "tsconfig.base.json": json.dumps(base),
            # JSONC: comments and trailing commas, as tsc allows
            "tsconfig.json": '{\n  // inherits the aliases\n  "extends": "./tsconfig.base",\n}\n',
            "src/app.ts": "import { db } from '@/db/client'\nimport x from '~lib'\n"
            "import u from 'utils/strings'\n",
            "src/db/client.ts": "export const db = 1\n",
            "lib/main.ts": "export default 1\n",
            "utils/strings.ts": "export default 1\n",
        }
    )
    assert edges_of(code_map) == {
        ("src/app.ts", "src/db/client.ts"),
        ("src/app.ts", "lib/main.ts"),
        ("src/app.ts", "utils/strings.ts"),  # through baseUrl
    }


def test_aliases_of_a_sibling_config_and_config_dir(build: Build) -> None:
    build_config = {"compilerOptions": {"paths": {"#app/*": ["${configDir}/src/*"]}}}
    code_map = build(
        {
            "web/tsconfig.json": json.dumps({"references": [{"path": "./tsconfig.app.json"}]}),
            "web/tsconfig.app.json": json.dumps(build_config),
            "web/src/main.ts": "import { x } from '#app/x'\n",
            "web/src/x.ts": "export const x = 1\n",
        }
    )
    assert edges_of(code_map) == {("web/src/main.ts", "web/src/x.ts")}


def test_workspace_packages_exports_and_self_reference(build: Build) -> None:
    exports = {
        ".": {"types": "./dist/types/index.d.ts", "import": "./dist/index.js"},
        "./route": {"import": "./dist/helper/route/index.js"},
    }
    code_map = build(
        {
            "package.json": json.dumps({"name": "hono", "exports": exports}),
            "src/index.ts": "export const app = 1\n",
            "src/helper/route/index.ts": "export const route = 1\n",
            "src/helper/route/index.test.ts": "import { route } from 'hono/route'\n"
            "import { app } from 'hono'\n",
            "packages/ui/package.json": json.dumps({"name": "@acme/ui", "main": "dist/index.js"}),
            "packages/ui/src/index.ts": "export const Button = 1\n",
            "packages/ui/src/theme.ts": "export const theme = 1\n",
            "apps/web/page.tsx": "import { Button } from '@acme/ui'\n"
            "import { theme } from '@acme/ui/theme'\nimport React from 'react'\n"
            "import { jsx } from '@scope/other/jsx'\n",
        }
    )
    assert edges_of(code_map) == {
        ("src/helper/route/index.test.ts", "src/helper/route/index.ts"),
        ("src/helper/route/index.test.ts", "src/index.ts"),
        ("apps/web/page.tsx", "packages/ui/src/index.ts"),
        ("apps/web/page.tsx", "packages/ui/src/theme.ts"),
    }
    assert code_map.files["apps/web/page.tsx"].external == ("@scope/other", "react")


def test_imports_follow_barrels_to_the_defining_file(build: Build) -> None:
    code_map = build(
        {
            "src/index.ts": "export * from './router'\nexport { Hono } from './hono'\n"
            "export * as utils from './utils/index'\nexport const VERSION = '1'\n",
            "src/router/index.ts": "export * from './smart'\n",
            "src/router/smart.ts": "export class SmartRouter {}\n",
            "src/hono.ts": "export class Hono {}\n",
            "src/utils/index.ts": "export const x = 1\n",
            "app.ts": "import { SmartRouter, Hono, utils, VERSION, Missing } from './src'\n",
            "whole.ts": "import * as all from './src'\nimport def from './src'\n",
        }
    )
    assert code_map.files["app.ts"].imports == (
        "src/hono.ts",
        "src/index.ts",  # VERSION is defined there; Missing leads nowhere else
        "src/router/smart.ts",
        "src/utils/index.ts",
    )
    assert code_map.edges[("app.ts", "src/hono.ts")] == 0.25  # one import, four files
    assert code_map.files["whole.ts"].imports == ("src/index.ts",)


def test_an_export_of_several_declarators_defines_each_name(build: Build) -> None:
    parsed = parse(
        "export const a = 1, b = f(1, 2);\n"
        "export const m: Map<string, number> = new Map(), n = 'x, y'\n"
        "export let c,\n  d\n"
        "export declare const e: number, g: string;\n"
        "const local = 1, hidden = 2\n"
        "export const h = (p, q) => {\n  return p, q\n}, k = [1, 2]\n"
    )
    assert [(s.name, s.kind, s.line) for s in parsed.symbols] == [
        ("a", "const", 1),
        ("b", "const", 1),
        ("m", "const", 2),
        ("n", "const", 2),
        ("c", "variable", 3),
        ("d", "variable", 4),
        ("e", "const", 5),
        ("g", "const", 5),
        ("h", "const", 7),
        ("k", "const", 9),
    ]
    # through a barrel's ``export *``, the import of the second name reaches its file
    code_map = build(
        {
            "src/index.ts": "export * from './codes'\nexport * from './other'\n",
            "src/codes.ts": "export const OK = 0, NOT_FOUND = 404\n",
            "src/other.ts": "export const other = 1\n",
            "app.ts": "import { NOT_FOUND } from './src'\n",
        }
    )
    assert code_map.files["app.ts"].imports == ("src/codes.ts",)


@pytest.mark.parametrize(
    ("source", "names"),
    [
        ("export const a = /,b = 2/, c = 3;", ["a", "c"]),
        ("export const re = /[/,]x = 1/g, d = 4;", ["d", "re"]),
        ("export const a = b ? /,z = 1/ : 2, c = 3;", ["a", "c"]),
        ("export const a = /(,z/, c = 3;", ["a", "c"]),
        ("export const a = x / 2, b = y / 3;", ["a", "b"]),
        ("export const a = (x) / 2, b = 1 / (2), c = 3;", ["a", "b", "c"]),
    ],
)
def test_a_regular_expression_literal_holds_no_declarator(source: str, names: list[str]) -> None:
    """A regular expression literal's ``,b = 2`` declared ``b``, and its ``(`` hid the
    names after it; a ``/`` after a name, a number or a closing bracket divides."""
    assert sorted(s.name for s in parse(source).symbols) == names


@pytest.mark.timeout(20)
def test_unfinished_regular_expressions_parse_at_once() -> None:
    """Each ``(/[`` looked for its literal's end to the line's end (2 s a line of 7,000)."""
    parsed = parse(("export const a = " + "(/[" * 7000 + "\n") * 20)
    assert [s.name for s in parsed.symbols] == ["a"]
