"""Members the code map names in the layouts libraries are written in: Java indented by
two spaces, Ruby's ``class << self``, JavaScript modules made of an object literal or
exporting a class, and classes holding multi-line template literals."""

from __future__ import annotations

from rubi.codemap.lang import cfamily, dart, javascript, jvm, ruby


def _names(parsed: object) -> list[str]:
    return [s.name for s in parsed.symbols]  # type: ignore[attr-defined]


def test_java_methods_of_a_file_indented_by_two_spaces() -> None:
    parsed = jvm.parse(
        "package com.acme;\n\n"
        "public abstract class Adapter<T> {\n"
        "  public Adapter() {}\n"
        "  public abstract void write(Writer out, T value) throws IOException;\n"
        "  public final String toJson(T value) {\n"
        "    final String inner = null;\n"
        "    return inner;\n"
        "  }\n"
        "  public final Adapter<T> nullSafe() {\n"
        "    return new Adapter<T>() {\n"
        "      @Override public void write(Writer out, T value) {}\n"
        "    };\n"
        "  }\n"
        "}\n"
    )
    names = _names(parsed)
    assert {"Adapter.write", "Adapter.toJson", "Adapter.nullSafe"} <= set(names)
    assert "Adapter.inner" not in names  # a statement two levels deep is no member


def test_java_methods_of_a_file_indented_by_four_spaces_or_a_tab() -> None:
    for unit in ("    ", "\t"):
        parsed = jvm.parse(
            f"public class Engine {{\n{unit}public void start() {{\n"
            f"{unit}{unit}public_helper();\n{unit}}}\n}}\n"
        )
        assert _names(parsed) == ["Engine", "Engine.start"]


def test_ruby_methods_inside_class_self_belong_to_their_module() -> None:
    parsed = ruby.parse(
        "class Thor\n"
        "  module Util\n"
        "    class << self\n"
        "      def find_by_namespace(namespace)\n"
        "      end\n\n"
        "      def snake_case(str)\n"
        "      end\n"
        "    end\n"
        "  end\n"
        "end\n"
    )
    names = _names(parsed)
    assert {"Util.find_by_namespace", "Util.snake_case"} <= set(names)


def test_ruby_class_self_three_namespaces_deep() -> None:
    parsed = ruby.parse(
        "module Jekyll\n  module Commands\n    class Serve < Command\n"
        "      class << self\n        def init_with_program(prog)\n        end\n"
        "      end\n    end\n  end\nend\n"
    )
    assert "Serve.init_with_program" in _names(parsed)


def test_ruby_block_inside_a_method_is_not_a_method() -> None:
    parsed = ruby.parse(
        "module Tool\n  def self.run\n    [1].each do |x|\n      def inner; end\n"
        "    end\n  end\nend\n"
    )
    assert "Tool.run" in _names(parsed)
    assert "Tool.inner" not in _names(parsed)


def test_javascript_module_made_of_an_object_literal() -> None:
    parsed = javascript.parse(
        "'use strict'\n\n"
        "module.exports = {\n"
        "  get header () {\n    return this.req.headers\n  },\n\n"
        "  set header (val) {\n    this.req.headers = val\n  },\n\n"
        "  accepts (...args) {\n    return this.accept.types(...args)\n  },\n\n"
        "  stringify: (obj) => {\n    return ''\n  },\n\n"
        "  parse: function (str) {\n    return {}\n  }\n"
        "}\n"
    )
    assert set(_names(parsed)) == {"header", "accepts", "stringify", "parse"}


def test_javascript_named_object_literal_and_exported_class() -> None:
    parsed = javascript.parse(
        "const proto = module.exports = {\n"
        "  onerror (err) {\n    if (err == null) return\n  },\n}\n\n"
        "module.exports = class Application extends Emitter {\n"
        "  constructor (options) {\n    super()\n    debug('listen')\n  }\n\n"
        "  use (fn) {\n    return this\n  }\n"
        "}\n"
    )
    names = _names(parsed)
    assert {"proto.onerror", "Application", "Application.use"} <= set(names)
    # statements of a method body (two spaces deeper, no semicolon) are no methods
    assert "Application.super" not in names and "Application.debug" not in names


def test_javascript_class_methods_after_a_multiline_template_literal() -> None:
    parsed = javascript.parse(
        "export class Command {\n"
        "  name(str) {\n"
        "    throw new Error(`name is missing\n"
        "- give it in the constructor`);\n"
        "  }\n\n"
        "  parse(argv) {\n    return argv;\n  }\n"
        "}\n"
    )
    assert {"Command.name", "Command.parse"} <= set(_names(parsed))


def test_kotlin_members_nested_types_and_companion_objects() -> None:
    parsed = jvm.parse(
        "package okio\n\n"
        "import kotlin.jvm.JvmStatic\n\n"
        "abstract class FileSystem : Closeable {\n"
        "  @Throws(IOException::class)\n"
        "  abstract fun canonicalize(path: Path): Path\n\n"
        "  @Throws(IOException::class)\n"
        "  inline fun <T> read(file: Path, readerAction: BufferedSource.() -> T): T {\n"
        "    fun local() = 1\n"
        "    val buffered = source(file).buffer()\n"
        "    return buffered.use { readerAction(it) }\n"
        "  }\n\n"
        "  override suspend fun close() {}\n\n"
        "  private class Entry(val path: Path) {\n"
        "    fun isDirectory(): Boolean = false\n"
        "  }\n\n"
        "  internal sealed interface Node\n\n"
        "  private companion object {\n"
        "    @JvmStatic fun get(): FileSystem = SYSTEM\n"
        "  }\n"
        "}\n\n"
        "fun Path.exists(): Boolean = true\n"
        "typealias Paths = List<Path>\n"
        "val listener = object : Listener {\n"
        "  override fun onEvent() {}\n"
        "}\n",
        language="kotlin",
    )
    names = _names(parsed)
    assert set(names) == {
        "FileSystem",
        "FileSystem.canonicalize",
        "FileSystem.read",
        "FileSystem.close",
        "FileSystem.Entry",
        "FileSystem.Entry.isDirectory",
        "FileSystem.Node",
        "FileSystem.get",
        "exists",
        "Paths",
        "listener",
    }
    kinds = {s.name: s.kind for s in parsed.symbols}
    assert kinds["FileSystem.read"] == "method" and kinds["FileSystem.Node"] == "interface"


def test_c_functions_whose_return_type_an_export_macro_wraps() -> None:
    parsed = cfamily.parse(
        '#include "cJSON.h"\n\n'
        "static cJSON_bool parse_value(cJSON * const item, parse_buffer * const input)\n{\n"
        "    return false;\n}\n\n"
        "CJSON_PUBLIC(cJSON *) cJSON_ParseWithLength(const char *value, size_t length)\n{\n"
        "    return NULL;\n}\n\n"
        "CJSON_PUBLIC(void) cJSON_Delete(cJSON *item)\n{\n"
        "    if (item) { free(item); }\n}\n\n"
        "CJSON_PUBLIC(cJSON *) cJSON_CreateNull(void);\n"
    )
    assert _names(parsed) == ["parse_value", "cJSON_ParseWithLength", "cJSON_Delete"]


def test_typescript_private_methods_and_top_level_arrow_functions() -> None:
    parsed = javascript.parse(
        "import http from 'node:http';\n\n"
        "const noop = () => {};\n"
        "const isTransient = (error: Error): boolean => error.code === 'EPIPE';\n"
        "const getUrl = async function (url) {\n  return url;\n};\n"
        "const TIMEOUT = 1000;\n"
        "const handlers = items.map((item) => item.id);\n\n"
        "export default class Request extends Duplex {\n"
        "\tprivate _uploadedSize = 0;\n"
        "\tprivate async _makeRequest(): Promise<void> {\n"
        "\t\tawait this._send();\n"
        "\t}\n"
        "\t#createHeadersProxy(): Headers {\n"
        "\t\treturn new Proxy();\n"
        "\t}\n"
        "\t*entries() {\n"
        "\t\tyield 1;\n"
        "\t}\n"
        "}\n"
    )
    assert set(_names(parsed)) == {
        "noop",
        "isTransient",
        "getUrl",
        "Request",
        "Request._makeRequest",
        "Request.createHeadersProxy",
        "Request.entries",
    }


def test_dart_named_parameters_named_constructors_and_no_keywords() -> None:
    parsed = dart.parse(
        "import 'option.dart';\n\n"
        "Option newOption(\n    String name, {String? help, bool hide = false}) {\n"
        "  return Option._(name, help: help);\n}\n\n"
        "class Option {\n"
        "  Option._(this.name, {this.help});\n\n"
        "  factory Option.fromJson(Map<String, Object?> json) =>\n"
        "      Option._(json['name'] as String);\n\n"
        "  dynamic valueOrDefault(Object? value, {void Function(String)? log}) {\n"
        "    if (value != null) {\n"
        "      return value;\n"
        "    }\n"
        "    for (var i = 0; i < 3; i++) {\n"
        "      Option._(value);\n"
        "    }\n"
        "    return null;\n"
        "  }\n"
        "}\n"
    )
    assert _names(parsed) == [
        "newOption",
        "Option",
        "Option._",
        "Option.fromJson",
        "valueOrDefault",
    ]


def test_c_typedef_of_an_anonymous_struct_is_named_after_its_body() -> None:
    parsed = cfamily.parse(
        "typedef struct {\n"
        "    const unsigned char *content;\n"
        "    struct { int depth; } nested;\n"
        "} parse_buffer;\n\n"
        "typedef enum { A, B } kind_t, *kind_ptr;\n\n"
        "typedef struct redisReply {\n    int type;\n} redisReply;\n\n"
        "typedef struct {\n    int never_closed;\n"
    )
    assert _names(parsed) == ["parse_buffer", "kind_t", "redisReply"]
