"""A Kotlin Multiplatform project's structure in a search of code: each module's
``build.gradle.kts`` is named by its folder, a platform file (``jvmMain``) below the
same file of ``commonMain`` weighs half as its variant, test source sets
(``commonTest``) weigh as tests, and a question that asks for a demo finds the demo."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.core.paths import VaultPaths
from rubi.index.documents import code_title
from rubi.search.nodeweights import common_twin

from helpers import rubi_project

PKG = "src/{}/kotlin/com/acme/store"
COMMON_STORE = (
    "package com.acme.store\n\n"
    "/** Saves a value under a key on the device, read back after the app restarts. */\n"
    "expect class KeyStore() {\n"
    "    /** Saves a value under a key. */\n"
    "    fun save(key: String, value: String)\n"
    "}\n"
)
JVM_STORE = (
    "package com.acme.store\n\n"
    "import java.util.prefs.Preferences\n\n"
    "actual class KeyStore actual constructor() {\n"
    "    private val prefs = Preferences.userRoot()\n"
    "    actual fun save(key: String, value: String) = prefs.put(key, value)\n"
    "}\n"
)
JS_STORE = (
    "package com.acme.store\n\n"
    "actual class KeyStore actual constructor() {\n"
    "    actual fun save(key: String, value: String) = localStorage.setItem(key, value)\n"
    "}\n"
)
CACHE = (
    "package com.acme.store\n\n"
    "/** Keeps a value for the app's session only, gone after a restart. */\n"
    "class SessionCache {\n"
    "    private val values = mutableMapOf<String, String>()\n"
    "    fun save(key: String, value: String) { values[key] = value }\n"
    "}\n"
)
TEST_HELPER = (
    "package com.acme.store\n\n"
    "/** A key store for tests: saves a value under a key in memory, read back after\n"
    " * a restart of the app, on the device or not. */\n"
    "class FakeKeyStore {\n"
    "    fun save(key: String, value: String) {}\n"
    "}\n"
)
CORE_BUILD = (
    'plugins {\n    kotlin("multiplatform")\n}\n\nkotlin {\n    jvm()\n    js { browser() }\n}\n'
)
DATASTORE_BUILD = (
    'plugins {\n    kotlin("multiplatform")\n}\n\n'
    "kotlin {\n    jvm()\n    sourceSets {\n        commonMain.dependencies {\n"
    "            implementation(libs.androidx.datastore)\n        }\n    }\n}\n"
)
DATASTORE_CODE = (
    "package com.acme.datastore\n\n"
    "/** Settings kept in an androidx DataStore of preferences. */\n"
    "class DataStoreSettings(private val store: DataStore) {\n"
    "    fun read(key: String): String? = store.read(key)\n"
    "}\n"
)
DEMO = (
    "package com.acme.demo\n\n"
    "/** A page with a text field and buttons to save and read a value. */\n"
    'fun main() {\n    val store = KeyStore()\n    store.save("name", "value")\n}\n'
)


@pytest.mark.parametrize(
    ("path", "title"),
    [
        ("store-datastore/build.gradle.kts", "store-datastore build.gradle.kts"),
        ("sample/app-browser/settings.gradle", "app-browser settings.gradle"),
        ("build.gradle.kts", "build.gradle.kts"),  # the root's: no folder to name it
        ("core/src/commonMain/kotlin/a/Build.kt", "Build.kt"),
    ],
)
def test_a_gradle_script_is_titled_by_its_folder(path: str, title: str) -> None:
    assert code_title(path) == title


@pytest.mark.parametrize(
    ("path", "twin"),
    [
        ("okio/src/jvmMain/kotlin/okio/Sink.kt", "okio/src/commonMain/kotlin/okio/Sink.kt"),
        ("src/nonJvmMain/kotlin/a/B.kt", "src/commonMain/kotlin/a/B.kt"),
        ("okio/src/commonMain/kotlin/okio/Sink.kt", None),  # the common file is no variant
        ("okio/src/jvmTest/kotlin/okio/SinkTest.kt", None),
        ("lib/src/main/kotlin/a/B.kt", None),  # a JVM-only module has no source sets
        ("docs/src/MainPage.kt", None),
    ],
)
def test_the_common_twin_of_a_platform_file(path: str, twin: str | None) -> None:
    assert common_twin(path) == twin


@pytest.fixture
def project(tmp_path: Path) -> VaultPaths:
    root = rubi_project(
        tmp_path / "proj",
        {
            f"core/{PKG.format('commonMain')}/KeyStore.kt": COMMON_STORE,
            f"core/{PKG.format('jvmMain')}/KeyStore.kt": JVM_STORE,
            f"core/{PKG.format('jsMain')}/KeyStore.kt": JS_STORE,
            f"core/{PKG.format('commonMain')}/SessionCache.kt": CACHE,
            f"core/{PKG.format('commonTest')}/FakeKeyStore.kt": TEST_HELPER,
            "core/build.gradle.kts": CORE_BUILD,
            "store-datastore/build.gradle.kts": DATASTORE_BUILD,
            "store-datastore/src/commonMain/kotlin/DataStoreSettings.kt": DATASTORE_CODE,
            "sample/app-browser/src/jsMain/kotlin/Main.kt": DEMO,
        },
    )
    paths = app.locate(root / ".rubi")
    app.index(paths)
    return paths


def _paths(paths: VaultPaths, query: str) -> list[str]:
    return [h.path for h in app.search(paths, query, scope="code", top_k=10).hits]


def test_the_platform_files_come_after_the_common_declaration(project: VaultPaths) -> None:
    hits = app.search(project, "save a value under a key", scope="code", top_k=10).hits
    order = [h.path for h in hits]
    common = f"core/{PKG.format('commonMain')}/KeyStore.kt"
    for platform in ("jvmMain", "jsMain"):
        path = f"core/{PKG.format(platform)}/KeyStore.kt"
        assert order.index(common) < order.index(path)
        assert f"variant of {common}" in hits[order.index(path)].why
    # the session cache shares the words but is no variant: it keeps its full weight
    assert order.index(f"core/{PKG.format('commonMain')}/SessionCache.kt") < order.index(
        f"core/{PKG.format('jsMain')}/KeyStore.kt"
    )


def test_a_test_source_set_weighs_as_tests(project: VaultPaths) -> None:
    order = _paths(project, "saves a value under a key in memory, read back after a restart")
    assert order.index(f"core/{PKG.format('commonMain')}/KeyStore.kt") < order.index(
        f"core/{PKG.format('commonTest')}/FakeKeyStore.kt"
    )


def test_a_module_s_build_script_is_found_by_the_module_s_name(project: VaultPaths) -> None:
    hits = app.search(project, "the datastore module's build script", scope="code").hits
    assert hits[0].path == "store-datastore/build.gradle.kts"
    assert "datastore (title)" in hits[0].why[0]  # the folder matched as the file's title


def test_a_question_that_asks_for_the_demo_finds_it(project: VaultPaths) -> None:
    question = "the browser demo page with a text field and buttons to save a value"
    assert _paths(project, question)[0] == "sample/app-browser/src/jsMain/kotlin/Main.kt"
