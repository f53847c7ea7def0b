"""Token formats ported from gitleaks' rule set (detector 1 of
:mod:`rubi.transcripts.privacy`, beside the table in :mod:`.tokens`).

Each rule is a gitleaks rule whose match is precise on its own: a fixed prefix (its
gitleaks ``keywords`` entry, the prefilter: the pattern runs only when the prefix
occurs in the text) and a fixed alphabet and length. gitleaks' rules that key on a
vendor's name near a random value (``okta … = 00…``) are covered by rubi's own
``name = value`` rule and are not ported; neither are its entropy-only ones. The
kinds keep gitleaks' rule ids where they name the vendor.

Ported from ``config/gitleaks.toml`` of https://github.com/gitleaks/gitleaks, used
under the MIT License:

    MIT License

    Copyright (c) 2019 Zachary Rice

    Permission is hereby granted, free of charge, to any person obtaining a copy
    of this software and associated documentation files (the "Software"), to deal
    in the Software without restriction, including without limitation the rights
    to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
    copies of the Software, and to permit persons to whom the Software is
    furnished to do so, subject to the following conditions:

    The above copyright notice and this permission notice shall be included in all
    copies or substantial portions of the Software.

    THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
    IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
    FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
    AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
    LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
    OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
    SOFTWARE.
"""

from __future__ import annotations

from rubi.transcripts.privacy.patterns import TokenRule, token_rule

__all__ = ["GITLEAKS_TOKENS"]

_END = r"(?![A-Za-z0-9_])"
_END_DASH = r"(?![A-Za-z0-9_\-])"
_AN = "A-Za-z0-9"

GITLEAKS_TOKENS: list[TokenRule] = [
    token_rule("alibaba-access-key-id", rf"LTAI[{_AN}]{{20}}{_END}"),
    token_rule("heroku-api-key", rf"HRKU-AA[{_AN}_\-]{{58}}{_END_DASH}"),
    token_rule("1password-service-account-token", r"ops_eyJ[A-Za-z0-9+/]{250,}={0,3}"),
    token_rule("adobe-client-secret", rf"p8e-[{_AN}]{{32}}{_END}"),
    token_rule("artifactory-api-key", rf"AKCp[{_AN}]{{69}}{_END}"),
    token_rule("clojars-api-token", rf"CLOJARS_[{_AN}]{{60}}{_END}"),
    token_rule("cloudflare-origin-ca-key", rf"v1\.0-[a-f0-9]{{24}}-[a-f0-9]{{146}}{_END}"),
    token_rule("defined-networking-api-token", r"dnkey-[A-Za-z0-9=_\-]{26}-[A-Za-z0-9=_\-]{52}"),
    token_rule("duffel-api-token", r"duffel_(?:test|live)_[A-Za-z0-9_\-=]{43}"),
    token_rule("dynatrace-api-token", rf"dt0c01\.[{_AN}]{{24}}\.[{_AN}]{{64}}{_END}"),
    token_rule("easypost-api-token", rf"EZ[AT]K[{_AN}]{{54}}{_END}", gates=("EZAK", "EZTK")),
    token_rule("facebook-page-access-token", rf"EAA[MC][{_AN}]{{100,}}{_END}"),
    token_rule(
        "flutterwave-secret-key",
        r"FLWSECK(?:_TEST)?-[a-hA-H0-9]{32}-X",
        gates=("FLWSECK",),
    ),
    token_rule("flyio-access-token", rf"fo1_[\w\-]{{43}}{_END_DASH}"),
    token_rule(
        "flyio-access-token", r"fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,}={0,3}", gates=("fm1", "fm2")
    ),
    token_rule("frameio-api-token", r"fio-u-[A-Za-z0-9\-_=]{64}"),
    token_rule("grafana-api-key", rf"eyJrIjoi[{_AN}]{{70,400}}={{0,3}}"),
    token_rule(
        "harness-api-key",
        rf"[ps]at\.[A-Za-z0-9_\-]{{22}}\.[{_AN}]{{24}}\.[{_AN}]{{20}}{_END}",
        gates=("pat.", "sat."),
    ),
    token_rule(
        "hashicorp-tf-api-token",
        r"\.atlasv1\.(?<=[A-Za-z0-9]{14}\.atlasv1\.)[A-Za-z0-9\-_=]{60,70}",
        back="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
        most=14,
    ),
    token_rule("infracost-api-token", rf"ico-[{_AN}]{{32}}{_END}"),
    token_rule(
        "maxmind-license-key",
        rf"_mmk(?<=[{_AN}]{{6}}_[{_AN}]{{29}}_mmk){_END}",
        back="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_",
        most=36,
    ),
    token_rule("new-relic-user-api-key", rf"NRAK-[A-Z0-9]{{27}}{_END}"),
    token_rule("openshift-user-token", rf"sha256~[\w\-]{{43}}{_END_DASH}"),
    token_rule("perplexity-api-key", rf"pplx-[{_AN}]{{48}}{_END}"),
    token_rule("planetscale-api-token", rf"pscale_tkn_[\w=.\-]{{32,64}}{_END_DASH}"),
    token_rule("planetscale-password", rf"pscale_pw_[\w=.\-]{{32,64}}{_END_DASH}"),
    token_rule("planetscale-oauth-token", rf"pscale_oauth_[\w=.\-]{{32,64}}{_END_DASH}"),
    token_rule("prefect-api-token", rf"pnu_[{_AN}]{{36}}{_END}"),
    token_rule("pulumi-api-token", rf"pul-[a-f0-9]{{40}}{_END}"),
    token_rule("readme-api-token", rf"rdme_[a-z0-9]{{70}}{_END}"),
    token_rule("rubygems-api-token", rf"rubygems_[a-f0-9]{{48}}{_END}"),
    token_rule("scalingo-api-token", rf"tk-us-[\w\-]{{48}}{_END_DASH}"),
    token_rule("settlemint-token", rf"sm_[aps]at_[{_AN}]{{16}}{_END}", gates=("sm_",)),
    token_rule("shippo-api-token", rf"shippo_(?:live|test)_[a-fA-F0-9]{{40}}{_END}"),
    token_rule(
        "sourcegraph-access-token",
        rf"sgp_(?:(?:[a-fA-F0-9]{{16}}|local)_)?[a-fA-F0-9]{{40}}{_END}",
    ),
    token_rule("typeform-api-token", r"tfp_[A-Za-z0-9\-_.=]{59}"),
    token_rule(
        "authress-access-key",
        rf"authress_[{_AN}]{{5,30}}\.[{_AN}]{{4,6}}\.acc[_\-]"
        rf"[a-z0-9\-]{{10,32}}\.[A-Za-z0-9+/_=\-]{{30,120}}",
    ),
]
"""Ported rules: ``(kind, pattern, gates, bounded, back, most)``
(:func:`~rubi.transcripts.privacy.patterns.token_rule`)."""
