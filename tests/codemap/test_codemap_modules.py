"""Module grouping: package roots, src layouts, workspaces, tiny folders, names, slugs."""

from __future__ import annotations

import itertools

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


def test_a_maven_module_is_not_named_twice_by_its_java_package() -> None:
    """``gson/src/main/java/com/google/gson``: the reverse domain is dropped and the
    project's own package segment, which repeats the module's folder, is too."""
    main = "gson/src/main/java/com/google/gson"
    tests = "gson/src/test/java/com/google/gson"
    paths = [f"{main}/Gson{i}.java" for i in range(5)]
    paths += [f"{main}/stream/S{i}.java" for i in range(4)]
    paths += [f"{main}/internal/I{i}.java" for i in range(2)]
    paths += [f"{main}/internal/bind/B{i}.java" for i in range(41)]
    paths += [f"{tests}/functional/T{i}.java" for i in range(3)]
    paths += [f"metrics/src/main/java/com/google/gson/metrics/M{i}.java" for i in range(3)]
    got = _group(paths, ["pom.xml", "gson/pom.xml", "metrics/pom.xml"])
    assert got[f"{main}/Gson0.java"] == "gson"
    assert got[f"{main}/stream/S0.java"] == "gson/stream"
    assert got[f"{main}/internal/bind/B0.java"] == "gson/internal/bind"
    assert got[f"{tests}/functional/T0.java"] == "gson/functional"
    assert got["metrics/src/main/java/com/google/gson/metrics/M0.java"] == "metrics"
    names = set(got.values())
    assert not any(a == b for n in names for a, b in itertools.pairwise(n.split("/")))


def test_a_package_named_as_its_folder_gives_one_segment() -> None:
    paths = [f"examples/complex/complex/c{i}.py" for i in range(3)]
    paths += ["examples/complex/complex/__init__.py"]
    paths += [f"examples/complex/complex/commands/cmd_{i}.py" for i in range(3)]
    spring = "spring-test/src/test/{}/org/springframework/test/{}/C{}.{}"
    paths += [spring.format("java", "context", i, "java") for i in range(3)]
    paths += [spring.format("kotlin", "web", i, "kt") for i in range(3)]
    got = _group(paths, ["examples/complex/pyproject.toml", "spring-test/build.gradle"])
    assert got["examples/complex/complex/c0.py"] == "examples/complex"
    assert got["examples/complex/complex/commands/cmd_0.py"] == "examples/complex/commands"
    assert got[spring.format("java", "context", 0, "java")] == "spring-test/test"
    assert got[spring.format("kotlin", "web", 0, "kt")] == "spring-test/test"
