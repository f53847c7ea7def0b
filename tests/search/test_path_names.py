"""A written path names the project's file ending with its last two segments."""

from rubi.search.names import match_names

NAMES = {
    "types.py": ["src/click/types.py", "docs/types.py"],
    "core.py": ["src/click/core.py"],
    "__init__.py": [f"src/pkg{i}/util/__init__.py" for i in range(5)],
}


def test_a_traceback_frame_names_the_file_its_tail_ends() -> None:
    frame = 'File "/path/to/venv/lib/python3.12/site-packages/click/types.py", line 865'
    assert [m.id for m in match_names(frame, [], NAMES)] == ["src/click/types.py"]


def test_a_link_into_the_repository_names_the_file() -> None:
    link = "the check here: https://github.com/pallets/click/blob/c9f7d9d/src/click/types.py#L929"
    got = match_names(link, [], NAMES)
    assert [(m.id, m.name) for m in got] == [("src/click/types.py", "click/types.py")]


def test_a_path_of_another_package_names_nothing() -> None:
    # The file name is the project's, its folder is not: jinja2/types.py is not click's.
    assert match_names("see site-packages/jinja2/types.py", [], NAMES) == []
    # A folder and no file name names nothing either.
    assert match_names("under src/click/", [], NAMES) == []


def test_a_tail_many_files_end_with_names_none_of_them() -> None:
    assert match_names("in lib/util/__init__.py", [], NAMES) == []


def test_a_windows_traceback_frame_names_the_file_its_tail_ends() -> None:
    frame = r'File "C:\Users\me\venv\Lib\site-packages\click\types.py", line 865, in convert'
    got = match_names(frame, [], NAMES)
    assert [(m.id, m.name) for m in got] == [("src/click/types.py", "click/types.py")]
    # An escape sequence in a message is no path: no file name after the backslash.
    assert match_names(r"expected \n between click\types", [], NAMES) == []
