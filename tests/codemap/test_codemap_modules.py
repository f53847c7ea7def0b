"""Module grouping: package roots, src layouts, workspaces, tiny folders, names, slugs."""

from __future__ import annotations

from rubi.codemap.modules import group_modules, slugify


def _group(paths: list[str], extra: list[str] | None = None) -> dict[str, str]:
    assignment, modules = group_modules(paths, paths + (extra or []))
    for name, module in modules.items():
        assert all(assignment[p] == name for p in module.files)
    return assignment


def test_python_src_layout() -> None:
    paths = [
        "src/flask/__init__.py",
        "src/flask/app.py",
        "src/flask/ctx.py",
        "src/flask/json/__init__.py",
        "src/flask/json/provider.py",
        "src/flask/json/tag.py",
        "src/flask/sansio/app.py",  # a folder of one file merges into its package
        "tests/test_a.py",
        "tests/test_b.py",
        "tests/apps/x.py",
        "docs/conf.py",
    ]
    got = _group(paths, ["pyproject.toml"])
    assert got["src/flask/app.py"] == "flask"
    assert got["src/flask/json/tag.py"] == "flask/json"
    assert got["src/flask/sansio/app.py"] == "flask"
    assert got["tests/apps/x.py"] == "tests"
    assert got["docs/conf.py"] == "(root)"


def test_typescript_src_folders_and_depth() -> None:
    paths = [
        "src/hono.ts",
        "src/context.ts",
        "src/router.ts",
        "src/router/trie-router/node.ts",
        "src/router/trie-router/router.ts",
        "src/router/reg-exp-router/router.ts",
        "src/middleware/cors/index.ts",
        "src/middleware/jwt/index.ts",
        "src/middleware/jwt/jwt.ts",
        "vitest.config.ts",
    ]
    got = _group(paths, ["package.json"])
    assert got["src/hono.ts"] == "src"  # the product apart from the root's configs
    assert got["src/router/trie-router/node.ts"] == "router"  # deeper folders join
    assert got["src/middleware/cors/index.ts"] == "middleware"
    assert got["vitest.config.ts"] == "(root)"


def test_workspace_packages_keep_their_names_even_when_small() -> None:
    paths = [
        "packages/eslint-plugin/src/index.ts",
        "packages/eslint-plugin/src/rules/a.ts",
        "packages/eslint-plugin/src/rules/b.ts",
        "packages/eslint-plugin/src/rules/c.ts",
        "packages/tiny/src/index.ts",
        "crates/matcher/src/lib.rs",
        "apps/web/page.tsx",
    ]
    extra = ["packages/eslint-plugin/package.json", "packages/tiny/package.json"]
    extra += ["crates/matcher/Cargo.toml"]
    got = _group(paths, extra)
    assert got["packages/eslint-plugin/src/rules/a.ts"] == "eslint-plugin/rules"
    assert got["packages/eslint-plugin/src/index.ts"] == "eslint-plugin"
    assert got["packages/tiny/src/index.ts"] == "tiny"  # a package, never merged away
    assert got["crates/matcher/src/lib.rs"] == "matcher"
    assert got["apps/web/page.tsx"] == "(root)"  # no manifest, one file: merged


def test_big_deep_folders_split_and_jvm_domains_are_skipped() -> None:
    base = "core/src/main/java/org/example"
    paths = [f"{base}/util/U{i}.java" for i in range(5)]
    paths += [f"{base}/beans/factory/F{i}.java" for i in range(45)]
    paths += [f"{base}/beans/B{i}.java" for i in range(3)]
    got = _group(paths, ["core/build.gradle"])
    assert got[f"{base}/util/U0.java"] == "core/util"
    assert got[f"{base}/beans/factory/F0.java"] == "core/beans/factory"  # ≥ 40 files
    assert got[f"{base}/beans/B0.java"] == "core/beans"


def test_modules_are_deterministic_with_unique_slugs() -> None:
    paths = ["a/b/x.py", "a/b/y.py", "a/b/z.py", "a-b/x.py", "a-b/y.py", "a-b/z.py"]
    first = group_modules(paths, paths)
    second = group_modules(list(reversed(paths)), list(reversed(paths)))
    assert first == second
    slugs = sorted(m.slug for m in first[1].values())
    assert len(set(slugs)) == len(slugs)
    assert slugify("eslint-plugin/rules") == "eslint-plugin-rules"
    assert slugify("(root)") == "root"
    assert slugify("Ünïcode/x y") == "ünïcode-x-y"
