"""Names that imitate well-known ones: a package registry's host (`registry.npmjs.cf`,
`pypi.org.example.net`) and a popular package's name one typing slip away (`reqeusts`, `electorn`,
`crossenv`, `colourama`).

A name is one slip away from another when one character is left out, added, changed, or two
neighbours are swapped. The popular names are kept with their own well-known near neighbours
(`psycopg` beside `psycopg2`, `tslint` beside `eslint`), which are then not slips; names shorter
than six characters are left out (`react`, `numpy`: too many real packages lie one slip from them).
"""

from __future__ import annotations

from functools import cache
from urllib.parse import urlsplit

# Popular packages of PyPI and npm, with the real packages one slip from one of them.
PYPI_POPULAR = frozenset({
    "requests", "urllib3", "certifi", "charset-normalizer", "idna", "setuptools", "packaging", "typing-extensions",
    "botocore", "boto3", "s3transfer", "python-dateutil", "pyyaml", "colorama", "cryptography", "pydantic",
    "pydantic-core", "attrs", "jinja2", "jinja", "markupsafe", "pytest", "pytest-cov", "pytest-mock", "numpy",
    "pandas", "scipy", "matplotlib", "scikit-learn", "tensorflow", "torch", "torchvision", "transformers",
    "flask", "django", "fastapi", "uvicorn", "gunicorn", "starlette", "sqlalchemy", "alembic", "psycopg2",
    "psycopg", "psycopg2-binary", "pymysql", "redis", "celery", "beautifulsoup4", "beautifulsoup", "lxml",
    "pillow", "openai", "anthropic", "langchain", "tiktoken", "httpx", "aiohttp", "websockets", "grpcio",
    "protobuf", "google-auth", "google-api-core", "azure-core", "virtualenv", "pipenv", "poetry", "wheel",
    "twine", "black", "isort", "flake8", "pylint", "mypy", "ruff", "tox", "nox", "coverage", "click", "rich",
    "typer", "tqdm", "paramiko", "pyjwt", "python-dotenv", "dotenv", "docker", "kubernetes", "selenium",
    "playwright", "scrapy", "opencv-python", "networkx", "sympy", "seaborn", "plotly", "jupyter", "notebook",
    "ipython", "ipykernel", "openpyxl", "xlrd", "simplejson", "ujson", "orjson", "marshmallow", "pymongo",
    "elasticsearch", "sentry-sdk", "structlog", "loguru", "arrow", "pendulum", "pytz", "tzdata", "six",
    "filelock", "platformdirs", "importlib-metadata", "zipp", "wrapt", "decorator", "pyparsing", "pygments",
    "docutils", "sphinx", "mkdocs", "mkdocs-material", "huggingface-hub", "datasets", "accelerate",
    "keras", "xgboost", "lightgbm", "catboost", "nltk", "spacy", "gensim", "streamlit", "gradio", "dash", "scapy",
})  # fmt: skip
NPM_POPULAR = frozenset({
    "react", "react-dom", "preact", "next", "vue", "nuxt", "svelte", "angular", "express", "koa", "fastify",
    "lodash", "lodash-es", "underscore", "axios", "node-fetch", "request", "chalk", "commander", "yargs",
    "inquirer", "debug", "dotenv", "dotenvx", "cross-env", "cross-spawn", "rimraf", "mkdirp", "glob", "minimist",
    "semver", "server", "uuid", "moment", "dayjs", "date-fns", "typescript", "ts-node", "tsx", "webpack",
    "webpack-cli", "vite", "vitest", "rollup", "esbuild", "parcel", "babel-loader", "eslint", "tslint",
    "prettier", "jest", "mocha", "chai", "sinon", "nodemon", "electron", "electron-builder", "puppeteer",
    "playwright", "socket.io", "ws", "mongoose", "mongodb", "sequelize", "prisma", "typeorm", "knex", "redis",
    "ioredis", "jsonwebtoken", "bcrypt", "bcryptjs", "passport", "helmet", "cors", "body-parser", "morgan",
    "winston", "pino", "redux", "react-redux", "zustand", "react-router", "react-router-dom", "styled-components",
    "tailwindcss", "postcss", "autoprefixer", "sass", "less", "classnames", "clsx", "graphql", "apollo-server",
    "@apollo/client", "zod", "yup", "joi", "ajv", "rxjs", "immer", "husky", "lint-staged", "concurrently",
    "npm-run-all", "nodemailer", "multer", "sharp", "jquery", "bootstrap", "three", "d3", "chart.js", "marked",
    "highlight.js", "colors", "color", "ora", "boxen", "execa", "fs-extra", "chokidar", "nanoid", "coffee-script",
    "coffeescript", "discord.js", "stripe", "openai", "aws-sdk", "firebase", "firebase-admin", "pm2", "yarn",
    "pnpm", "npm", "turbo", "lerna", "nx", "storybook", "cypress", "supertest", "ethers", "web3", "serve", "servor",
    "enquirer", "aws-cdk",
})  # fmt: skip

# The hosts of the public registries, and other names of the same services.
_REGISTRY_HOSTS = (
    "registry.npmjs.org", "registry.yarnpkg.com", "pypi.org", "files.pythonhosted.org", "pypi.python.org",
    "proxy.golang.org", "sum.golang.org", "index.crates.io", "crates.io", "rubygems.org", "repo.maven.apache.org",
    "repo1.maven.org",
)  # fmt: skip
_GENUINE_HOSTS = frozenset({*_REGISTRY_HOSTS, "pypi.io", "test.pypi.org", "registry.npmjs.com", "npmjs.org"})
_SHORTEST_IMITATED = 6


def _deletions(name: str) -> set[str]:
    return {name[:index] + name[index + 1 :] for index in range(len(name))}


def one_slip(typed: str, known: str) -> bool:
    """Whether `typed` is `known` with one character added, left out or changed, or two neighbours swapped."""
    if typed == known or abs(len(typed) - len(known)) > 1:
        return False
    shorter, longer = sorted((typed, known), key=len)
    same = next((index for index, (a, b) in enumerate(zip(shorter, longer, strict=False)) if a != b), len(shorter))
    if len(shorter) != len(longer):
        return shorter[same:] == longer[same + 1 :]
    swapped = longer[same + 1 : same + 2] + longer[same : same + 1] + longer[same + 2 :]
    return shorter[same + 1 :] == longer[same + 1 :] or shorter[same:] == swapped


@cache
def _near(popular: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """Per popular name and each of its deletions: the popular names it comes from. Two names one
    slip apart share one of these keys (the candidates are then checked exactly)."""
    index: dict[str, list[str]] = {}
    for name in sorted(popular):
        if len(name) >= _SHORTEST_IMITATED:
            for variant in {name} | _deletions(name):
                index.setdefault(variant, []).append(name)
    return {variant: tuple(names) for variant, names in index.items()}


def imitated_name(name: str, popular: frozenset[str]) -> str | None:
    """The popular name `name` is one slip from, when `name` is not itself a known package
    (`reqeusts` for requests, `crossenv` for cross-env)."""
    if name in popular or len(name) < _SHORTEST_IMITATED - 1:
        return None
    index = _near(popular)
    for key in {name} | _deletions(name):
        found = next((known for known in index.get(key, ()) if one_slip(name, known)), None)
        if found is not None:
            return found
    return None


def _label_stem(host: str) -> str:
    return host.rsplit(".", 1)[0]


def imitated_registry(url: str) -> str | None:
    """The public registry whose host the URL's host imitates: its name under another top-level
    domain (`registry.npmjs.cf`), inside another domain (`pypi.org.example.net`), or one slip away
    (`registry.npnjs.org`). A subdomain of a registry's own domain is its own."""
    try:
        host = (urlsplit(url if "://" in url else f"//{url}").hostname or "").rstrip(".")
    except ValueError:
        return None
    if not host or host in _GENUINE_HOSTS:
        return None
    for genuine in _REGISTRY_HOSTS:
        if host.endswith("." + genuine):
            return None
        if host.startswith(genuine + ".") or _label_stem(host) == _label_stem(genuine):
            return genuine
        if one_slip(host, genuine):
            return genuine
    return None
