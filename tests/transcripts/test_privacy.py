"""The redaction corpus: real-looking secrets all go; ordinary prose and code stay."""

from __future__ import annotations

import pytest

from rubi.transcripts.privacy import redact

SECRETS = [
    # (text, the secret that must disappear)
    ("AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI"),
    ("set aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY now", "wJalrXUtnFEMI"),
    ("my password is hunter2 by the way", "hunter2"),
    ("my key is AKIAIOSFODNN7EXAMPLE ok", "AKIAIOSFODNN7EXAMPLE"),
    ("export GITHUB_TOKEN=ghp_1234567890abcdefghijklmnopqrstuvwxyzAB", "ghp_1234567890"),
    (
        "use github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0",
        "github_pat_11",
    ),
    ("glpat-abcdefghij1234567890", "glpat-abcdef"),
    ("slack xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "xoxb-1234"),
    ("https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX", "T000/B000"),
    ("key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789-AAAA", "sk-ant-api03"),
    ("OPENAI: sk-proj-abcdefghijklmnopqrstuvwxyz012345", "sk-proj-abc"),
    ("stripe sk_live_51HabcdefghijklmnopQRSTUV", "sk_live_51H"),
    ("maps AIzaSyA1234567890abcdefghijklmnopqrstuv", "AIzaSyA123"),
    ("npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm_abcdef"),
    ("SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789abcdefg", "SG.abcdef"),
    (
        "token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0"
        ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "dozjgNryP4J3",
    ),
    (
        'curl -H "Authorization: Bearer abcdefghijklmnopqrstuvwxyz123456" x',
        "abcdefghijklmnopqrstuvwxyz123456",
    ),
    ("DATABASE_URL=postgres://admin:hunter2secret@db.example.com/app", "hunter2secret"),
    ("connect to mongodb+srv://user:pa55w0rd@cluster0.mongodb.net", "pa55w0rd"),
    ("redis://:verysecret@localhost:6379/0", "verysecret"),
    ("password: s3cr3t-P4ss", "s3cr3t-P4ss"),
    ("  db_password: 'correct horse battery'", "correct horse battery"),
    ("api_key = 'abcd1234efgh5678'", "abcd1234efgh5678"),
    ('{"client_secret": "abcdef123456"}', "abcdef123456"),
    ('"apiKey": "AbC123xyz789"', "AbC123xyz789"),
    ("SECRET_KEY=django-insecure-abc123", "django-insecure"),
    ("<private>my home address is 1 Main St</private>", "1 Main St"),
    (
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"
        "-----END OPENSSH PRIVATE KEY-----",
        "b3BlbnNzaC1rZXkt",
    ),
    (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
        "MIIEowIBAAKCAQEA",
    ),
]

BENIGN = [
    "commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "sha1 da39a3ee5e6b4b0d3255bfef95601890afd80709",
    "uuid 123e4567-e89b-12d3-a456-426614174000",
    "![img](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk)",
    'password = os.environ["DB_PASSWORD"]',
    "TOKEN_URL = https://auth.example.com/token",
    "def get_token(): return session.token",
    "The token is valid for a day; rotate the password monthly.",
    "api_key: ${API_KEY}",
    "PASSWORD=",
    "secret: null",
    "Run `pytest -k token` to test the auth module.",
    "https://example.com/docs?page=2",
    "git@github.com:owner/repo.git",
    "from jwt import decode  # PyJWT",
    "The Bearer scheme is described in RFC 6750.",
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_secrets_are_redacted(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out
    assert "[REDACTED:" in out


@pytest.mark.parametrize("text", BENIGN)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert redact(text) == text


def test_text_around_a_secret_is_kept() -> None:
    out = redact("Deploy with password: hunter2\nthen restart the server")
    assert out == "Deploy with password: [REDACTED:password]\nthen restart the server"


TABLE_SECRETS = [
    # a name cell, its value in the next cell
    ("| Variable | Value |\n|---|---|\n| STAGING_API_KEY | 7hG4kP9qR2sT6vW8xY1z |", "7hG4kP9q"),
    ("| `DB_PASSWORD` | `hunter2x` | prod only |", "hunter2x"),
    ("| **client_secret** | *Zq8Wn3Lp0Rt6Yv2M* |", "Zq8Wn3Lp"),
    # a header that names the column
    (
        "| service | user | password |\n| :-- | --- | --- |\n| db | app | Hunter2Example |",
        "Hunter2",
    ),
    ("| host | token |\n|---|---|\n| a | x |\n| ci | `aB3dE5gH7jK9mN1pQ3` |", "aB3dE5gH"),
    # no outer pipes (GitHub's tables allow it), or a row pasted into a line of prose
    ("host | user | password\n--- | --- | ---\ndb | app | Hunter2Example", "Hunter2"),
    ("staging: | API_KEY | 7hG4kP9qR2sT6vW8xY1z | see the wiki", "7hG4kP9q"),
]
TABLE_PROSE = [
    "| Variable | Description |\n|---|---|\n| API_KEY | Your API key |\n| SECRET_KEY | required |",
    "| Field | Type |\n|---|---|\n| password | string |\n| token | Token |\n"
    "| api_key | str \\| None |",
    "| Setting | Password | Token |\n|---|---|---|\n| min length | 12 | — |\n"
    "| rotation | 90d | yes |",
    "| column | value |\n|---|---|\n| password_hash | 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b |",
    "| token | count |\n|---|---|\n| the | 5012 |",
    "cat token.txt | grep Abc123456789xyz",
    "echo $API_KEY | base64 -d",
    "def f(token: str | None = None) -> Secret | None: ...",
    "const token = cached || Xyz123abc9Q;",
]


@pytest.mark.parametrize(("text", "secret"), TABLE_SECRETS)
def test_a_secret_in_a_markdown_table_is_redacted(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out
    assert out.count("|") == text.count("|"), "the table keeps its shape"


@pytest.mark.parametrize("text", TABLE_PROSE)
def test_a_markdown_table_that_describes_secrets_is_left_alone(text: str) -> None:
    assert redact(text) == text


SWITCHES = [
    "rclone sync --sftp-user www-data --sftp-ask-password public/ :sftp:www/",
    "ansible-playbook --ask-become-pass site.yml",
    "ansible-playbook --ask-vault-pass deploy.yml -i hosts",
    "gh auth token --show-token org/repo",
]


@pytest.mark.parametrize("text", SWITCHES)
def test_the_argument_after_a_switch_that_asks_for_a_password_is_kept(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [("--new-password Xy7zzz", "Xy7zzz"), ("--no-password=Secr3t9", "Secr3t9")],
)
def test_a_flag_given_its_value_is_redacted_whatever_its_words(text: str, secret: str) -> None:
    assert secret not in redact(text)


DATA_PASSWORDS = [
    # a bare word is the value itself in configuration data
    ("---\ntitle: Staging db\npassword: CorrectHorseBatteryStaple\n---\nNotes.", "CorrectHorse"),
    ("Config:\n\n```yaml\ndb:\n  host: db1\n  password: CorrectHorseBatteryStaple\n```\n", "Horse"),
    ("```yml\nansible_become_pass: vagrantpass\n```", "vagrantpass"),
    ("[database]\nhost = db1\npassword = CorrectHorseBatteryStaple\n", "CorrectHorse"),
    ("```toml\n[db]\npassword = CorrectHorseBatteryStaple\n```", "CorrectHorse"),
    ("```ini\n[client]\nuser=app\npassword=CorrectHorseBatteryStaple\n```", "CorrectHorse"),
    ("```yaml\ndb_password: correct horse battery staple\n```", "battery staple"),
    ("spring.datasource.password=CorrectHorseBatteryStaple\n", "CorrectHorse"),
    ("Here is the note:\n---\ntitle: db\npassword: CorrectHorseBatteryStaple\n---\n", "Horse"),
]
DATA_NOT_PASSWORDS = [
    # code and prose keep the shape's other meanings; data keeps its references
    "class Login(BaseModel):\n    password: SecretStr\n    token: Token\n",
    "```python\ndef f():\n    password = new_password\n```",
    "password = CorrectHorseBatteryStaple  # a variable in code",
    "```yaml\npassword: !secret wifi_password\ntoken: *default_token\n```",
    "```yaml\npassword: ${DB_PASSWORD}\nsecret: required\npassword_file: /run/secrets/db\n```",
    "---\ntitle: Password policy\npassword: Password\n---\n",
    "```yaml\nauth: basic\ntoken: github\npassword: ~\n```",
    "[tool.ruff]\nline-length = 100\n[auth]\nmethod = token\n",
    "this.password=newPassword;",
    "Login\n---\nThe form has a password: PasswordInput field.\n\nMore prose.\n---\n",
]


@pytest.mark.parametrize(("text", "secret"), DATA_PASSWORDS)
def test_a_bare_password_in_configuration_data_is_redacted(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out
    assert "[REDACTED:password]" in out


@pytest.mark.parametrize("text", DATA_NOT_PASSWORDS)
def test_code_and_references_shaped_like_configuration_are_left_alone(text: str) -> None:
    assert redact(text) == text


HEX_KEY = "3f9a2b7c4d1e8f0a6b5c9d2e7f1a4b8c"
NAMED_KEYS = [
    # a phrase that names one credential, then a 128-bit+ hexadecimal key
    (f"The encryption key: {HEX_KEY}3d6e9f0a2b5c8d1e4f7a0b3c6d9e2f5a", HEX_KEY),
    (f"the encryption key is {HEX_KEY}", HEX_KEY),
    (f"Master key: {HEX_KEY}", HEX_KEY),
    (f"AES key: {HEX_KEY}", HEX_KEY),
    (f"The API token is {HEX_KEY}", HEX_KEY),
    (f"Twilio account AC{HEX_KEY}, auth token {HEX_KEY[::-1]}", HEX_KEY[::-1]),
    (f"the signing secret is {HEX_KEY}", HEX_KEY),
]
NAMED_PROSE = [
    # words about keys and tokens, and hexadecimal that is no credential
    f"cache key: {HEX_KEY}",
    f"The key {HEX_KEY} maps to the cached render.",
    f"sha256 hash: {HEX_KEY}{HEX_KEY}",
    f"commit key: {HEX_KEY[:12]}",
    "- key: value pairs are read from the frontmatter",
    "Each token is counted once; the hash is computed per token.",
    "Note: it requires the purchase of an access token to work.",
    '{{ hmac "sha256" "Secret key" "Secret message" "hex" }}',
    "PWD: '/Users/jane'",
    "you will need to create a personal access token and install the CLI tool",
]


@pytest.mark.parametrize(("text", "secret"), NAMED_KEYS)
def test_a_hexadecimal_key_named_in_prose_is_redacted(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out
    assert "[REDACTED:secret]" in out


@pytest.mark.parametrize("text", NAMED_PROSE)
def test_prose_about_keys_tokens_and_hashes_is_left_alone(text: str) -> None:
    assert redact(text) == text


def test_a_service_account_file_keeps_its_names_and_loses_its_key_and_key_id() -> None:
    key_id = "8f3a2b1c9d4e7f6a5b0c1d2e3f4a5b6c7d8e9f0a"
    text = (
        '{\n  "type": "service_account",\n  "project_id": "demo-project",\n'
        f'  "private_key_id": "{key_id}",\n'
        '  "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC'
        'BKcwggSjAgEAAoIBAQC7\\n-----END PRIVATE KEY-----\\n",\n'
        '  "client_email": "ci@demo-project.iam.gserviceaccount.com",\n'
        '  "client_id": "104857392018374650123"\n}'
    )
    out = redact(text)
    assert key_id not in out and "MIIEvQIBADAN" not in out
    assert '"private_key_id": "[REDACTED:secret]"' in out
    assert "ci@demo-project.iam.gserviceaccount.com" in out and "104857392018374650123" in out


SIG = "4b2f6e8a1c3d5f7a9b0c2d4e6f8a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e1f2a"
SIGNED_URLS = [
    # whoever holds a presigned URL holds its access: the signature goes
    (
        "https://bucket.s3.amazonaws.com/report.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Date=20250101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host"
        f"&X-Amz-Signature={SIG}",
        SIG[:40],
    ),
    (
        "https://storage.googleapis.com/b/o.csv?X-Goog-Algorithm=GOOG4-RSA-SHA256"
        f"&X-Goog-Expires=900&X-Goog-Signature={SIG}",
        SIG[:40],
    ),
    (
        "https://d111111abcdef8.cloudfront.net/a.jpg?Expires=1357034400"
        "&Signature=nitfHRCrtziwO2HwPfWw~yYDhUF5EwRunQA-j19DzZrvDh6hQ73lDx~-ar3UocvvRQVw6&"
        "Key-Pair-Id=K2JCJMDEHXQW5F",
        "nitfHRCrtziwO2Hw",
    ),
]
UNSIGNED_URLS = [
    "https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html",
    "https://example.com/api?signature=required&format=json",
    "Add `X-Amz-Signature=<signature>` to the query string.",
    "https://example.com/verify?signature=${SIGNATURE}",
]


@pytest.mark.parametrize(("text", "secret"), SIGNED_URLS)
def test_the_signature_of_a_presigned_url_is_redacted(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out
    assert "[REDACTED:url-signature]" in out
    assert out.split("?")[0] == text.split("?")[0], "the address stays readable"


@pytest.mark.parametrize("text", UNSIGNED_URLS)
def test_urls_without_a_signature_value_are_left_alone(text: str) -> None:
    assert redact(text) == text


PLACED_SECRETS = [
    # a bare password in a URL query or a connection string is the value itself
    ("Data Source=srv;Initial Catalog=db;User Id=sa;Password=CorrectHorseBatteryStaple;", "Horse"),
    ("https://legacy.example.com/login?user=bob&password=CorrectHorseBatteryStaple", "Horse"),
    # cookies written as a header in code, or with a quoted value
    ('Set-Cookie: session="Zk3pQ9xR7vB2nL5mT8wY1cH4"; Path=/; HttpOnly', "Zk3pQ9xR"),
    ("headers = {'Cookie': 'sessionid=Zk3pQ9xR7vB2nL5mT8wY1cH4'}", "Zk3pQ9xR"),
]
PLACED_PROSE = [
    "https://x.com/login?user=bob&password=required",
    "https://x.com/?password=${PW}",
    "f(x, password=password)",
    "const cookie = document.cookie;",
    "Server=s;Database=db;Integrated Security=true;",
    "// headers === { foo: 'bar', 'set-cookie': ['foo=bar', 'bar=baz'] }",
    "Cookie: theme=dark; lang=en",
]


@pytest.mark.parametrize(("text", "secret"), PLACED_SECRETS)
def test_a_secret_in_a_query_connection_string_or_cookie_header_is_redacted(
    text: str, secret: str
) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize("text", PLACED_PROSE)
def test_references_in_queries_and_cookie_code_are_left_alone(text: str) -> None:
    assert redact(text) == text


DOCUMENTATION = [
    # real documentation lines: names with a sigil, commands written in prose
    "Token|Result\n:--|:--\n`:date_full`|`Friday, January 27, 2023`\n"
    "`:date_medium`|`Jan 27, 2023`\n`:time_medium`|`11:44:58 pm`",
    "cookies, `curl -u`, `mysql -p`, `sshpass`, `hf_`, `whsec_`",
    "the password that the flag gives after it: ``mysql -pPW``, ``docker login -p PW``,",
    "`--password $PW`, `--private-key ~/.ssh/id`, `--password option`",
    "PHP ``define('DB_PASSWORD', 'value')`` (WordPress' ``wp-config.php``)",
]


@pytest.mark.parametrize("text", DOCUMENTATION)
def test_documentation_of_tokens_and_password_flags_is_left_alone(text: str) -> None:
    assert redact(text) == text


def test_the_case_bit_the_rules_test_is_re_s() -> None:
    """The token rules test ``re.I`` as a plain int: the same bit, and a rule asked for
    with it is gated on the text's lower-case copy."""
    import re

    from rubi.transcripts.privacy.patterns import IGNORE_CASE, token_rule

    assert int(re.IGNORECASE) == IGNORE_CASE
    assert token_rule("k", "Key-[0-9]+", flags=re.I)[2] == ("key-",)
    assert token_rule("k", "Key-[0-9]+")[2] == ("Key-",)
