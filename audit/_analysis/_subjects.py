"""The analysis layer's interface: what rules inspect (normalised commands,
redirects, assignments, code contexts, functions and loops, each located in
the command's structure) and the `Sink` the analysis hands them to.

Like the syntax nodes these are NamedTuples: immutable, and cheap to make
for every command of every audit."""

from __future__ import annotations

from enum import Enum

from .._model import Position, Span
from .._named_tuple import NamedTuple
from .._syntax import ParseTrouble, ast
from ..programs import Arg
from ..programs.destinations import Host
from ..programs.sending import Slot


class Risk(str, Enum):
    """Why a command's output must not become code."""

    FETCH = "fetches from the network"
    DECODE = "decodes data"
    INTERPRETER = "runs an interpreter"
    TAINT = "uses a variable holding downloaded or decoded data"


class NameSource(str, Enum):
    """Where the effective command name comes from."""

    STATIC = "static"
    DYNAMIC = "dynamic"
    RISKY_SUBSTITUTION = "risky-substitution"
    TAINTED = "tainted"


class StdinKind(str, Enum):
    PIPE = "pipe"
    HEREDOC = "heredoc"
    HERESTRING = "herestring"
    PROCESS_SUBSTITUTION = "process-substitution"
    FILE = "file"


class Stdin(NamedTuple):
    """What a command reads on standard input, when the command says so."""

    kind: StdinKind
    span: Span
    label: str
    risks: frozenset[Risk] = frozenset()
    parts: tuple[ast.WordPart, ...] = ()
    feeders: tuple[str, ...] = ()
    """For a pipe: the names of the commands in the stages before, each once."""
    writer: ast.Command | None = None
    """The command whose output this is: for a pipe, the stage right before; for `< <(COMMAND)`, the
    substitution's one command (bash feeds its output to standard input as a pipe would)."""
    upstream: Stdin | None = None
    """For a pipe: what the stage right before reads on its standard input."""
    through_path: bool = False
    """For a `>(...)` path: the writer writes to it as to a file (`tee >(nc H P) > /dev/null`
    sends tee's input to nc, whatever tee's own standard output is)."""
    target: ast.Word | None = None
    """For a file (`< FILE`): the file's word."""
    file: str | None = None
    """For `< FILE`: the file's name when it is written literally."""


class Location(NamedTuple):
    """Where a subject sits: its position and the path that reached it. `other_account`: on
    the way, a wrapper changed the account the code runs as (`sudo bash -c CODE`). `shown`: a
    substitution whose output the command it is an argument of prints to the screen
    (`echo "$(...)"`), so what the code inside prints is shown, not only captured."""

    position: Position
    path: tuple[str, ...]
    other_account: bool = False
    shown: bool = False


OUTPUT_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>"})
"""The redirect operators that send standard output to their target (`&>`: both streams)."""


class RedirectSubject(NamedTuple):
    operator: str
    fd: str | None
    target: Arg | None
    span: Span
    command_name: str | None
    location: Location
    cwd: str | None = None
    command_words: tuple[Arg, ...] | None = None
    """The simple command the redirect belongs to, from its name on (empty for a command of redirects
    alone, `< FILE`); None for a compound command's redirect or one in another language's code."""

    @property
    def writes(self) -> bool:
        """True for operators that open the target for writing."""
        return self.operator in (">", ">>", ">|", "&>", "&>>", "<>", ">&") and not (
            self.operator == ">&" and self.target is not None and (self.target.value or "").isdigit()
        )

    @property
    def reads(self) -> bool:
        return self.operator in ("<", "<>", "<&")


class CommandSubject(NamedTuple):
    """A simple command bash runs, with wrappers already unwrapped.

    `argv[command_index]` is the effective command (after `sudo`, `env`, `timeout`...);
    `name` is its normalised basename, None when it is computed at run time.
    `cwd` is the working directory when an earlier `cd` in the same command
    string made it known (cleaned, `~` for the home), else None.
    """

    argv: tuple[Arg, ...]
    command_index: int
    name: str | None
    name_source: NameSource
    name_evidence: Span | None
    wrappers: tuple[str, ...]
    span: Span
    location: Location
    stdin: Stdin | None
    piped_on: bool
    """Whether what the command prints goes to a later stage of a pipeline, not to the screen."""
    background: bool
    cwd: str | None = None
    written: tuple[tuple[str, str], ...] = ()
    """Files an earlier command in the same string wrote with known text, as (clean path, text)."""
    moved: bool = False
    """Whether an earlier `cd`, `pushd` or `popd` in the same string changed the working directory
    (to `cwd`, or somewhere unknown): without one, it is where the command was started."""
    environment: tuple[tuple[str, str], ...] = ()
    """The variables the program gets from the command string: those an earlier `export NAME=value` set,
    then those the command itself sets (`NAME=value cmd`, `env NAME=value cmd`), as (name, value) in the
    order bash sets them; a value known only at run time is left out. The exports are followed in the
    order the walk meets them, wherever they are (one in a subshell that ended still counts)."""
    earlier: tuple[tuple[Arg, ...], ...] = ()
    """The arguments of the commands of the same name an earlier part of the string ran, in order:
    what they set up for this one (`git remote add x URL` before `git push x`)."""
    root_owned: tuple[str, ...] = ()
    """Files an earlier `chown root` of the same string gave to root, as clean paths (`chown root ./x &&
    chmod u+s ./x` makes a setuid-root program)."""
    loop_listings: tuple[tuple[Span, ast.Word], ...] = ()
    """The arguments that are a loop variable taking the items of a substitution (`"$b"` in `for b in
    $(git branch -r); do ...`), by their place, with that substitution."""
    each_item: tuple[Span, ...] = ()
    """The arguments that take a different item of a listing each time the command runs (by their place):
    a word using the variable of `for id in $(cat ids)`, `for f in *.json` or `while read id` (the
    `_loop_listings.each_item` rules)."""
    selected: tuple[tuple[str, str], ...] = ()
    """The targets earlier commands of the string selected for a tool by changing its saved settings
    (`kubectl config use-context prod`, `kubectx prod`, `gcloud config set project p`), as (setting, value)
    with the settings of `audit.programs.selections`, the last choice of each."""
    stdout: Arg | None = None
    """The file a redirect sends what the command prints to, its own or an enclosing command's (`> FILE`,
    `{ ...; } >> FILE`, `&> FILE`; `/dev/stderr` for `>&2`); None when no redirect moves it: it goes to the
    terminal, or on to the next stage when `piped_on` (`rules/_paths.prints_to_screen`)."""

    def setting(self, *names: str) -> str | None:
        """The value the program gets for the first of `names` the command sets (the last assignment
        of a name wins, as in bash); None when the command sets none of them."""
        for wanted in names:
            for name, value in reversed(self.environment):
                if name == wanted:
                    return value
        return None

    @property
    def args(self) -> tuple[Arg, ...]:
        return self.argv[self.command_index + 1 :]


class AssignmentSubject(NamedTuple):
    """`NAME=value` in any form: prefix, standalone, export/declare, env."""

    name: str
    value: Arg | None
    exported: bool
    form: str
    span: Span
    location: Location


class ContextKind(str, Enum):
    """The ways a command turns data into code."""

    EVAL = "eval"
    CODE_STRING = "code-string"
    RUNNER = "runner"
    STDIN_PIPE = "stdin-pipe"
    STDIN_DOCUMENT = "stdin-document"
    SCRIPT_SUBSTITUTION = "script-substitution"
    PROMPT_EXPANSION = "prompt-expansion"
    DOWNLOADED_FILE = "downloaded-file"
    DOWNLOADED_TREE = "downloaded-tree"
    """A file in a directory the same command string filled with downloaded code (a clone, an unpacked download)."""
    INTO_INSTALLED_PACKAGES = "into-installed-packages"
    """A directory of installed packages (`node_modules`, `site-packages`) the command fills with downloaded
    code, or a file there it downloads: `feeder` is the download."""
    ARITHMETIC = "arithmetic"
    RUNS_LATER = "runs-later"
    """A file that runs by itself later (a git hook, a unit, a cron job...), written with
    content that downloads or decodes, or downloaded there: emitted only then."""
    SETTING_COMMAND = "setting-command"
    """A command a settings file written here makes a tool run by itself later (ssh's
    `ProxyCommand`, a VS Code task run at folder open): its text is the one dynamic part's source."""


class AutorunFormat(str, Enum):
    """How a file that runs by itself later is read (the policy's `autorun_*` tables)."""

    SCRIPT = "script"
    """A program: its `#!` line picks the language (git hooks, rc.local, shell startup files)."""
    CRONTAB = "crontab"
    """Schedule lines, each ending in a shell command."""
    UNIT = "unit"
    """A systemd unit or desktop entry: its `Exec...=` lines run."""
    OPAQUE = "opaque"
    """Not read (a launchd property list): only a download written there is judged."""
    PACKAGE_SCRIPTS = "package-scripts"
    """A package.json: npm, pnpm and yarn run its `scripts` through a shell (`npm test`, and
    `preinstall`/`postinstall` on every install)."""
    MAKEFILE = "makefile"
    """A Makefile: make runs each recipe line through a shell."""
    PYTHON = "python"
    """A Python file a tool imports and runs: pytest's conftest.py, setup.py, noxfile.py."""
    RUBY = "ruby"
    """A Ruby file a tool loads and runs: rake's Rakefile, Bundler's Gemfile, a Vagrantfile."""
    JAVASCRIPT = "javascript"
    """A JavaScript file a build tool loads and runs: gulpfile.js, webpack.config.js, vite.config.js."""
    JUSTFILE = "justfile"
    """A justfile: just runs each recipe line through a shell."""
    SSH_CONFIG = "ssh-config"
    """An ssh client configuration: `ProxyCommand`, `LocalCommand`, `KnownHostsCommand` and
    `Match exec` hold shell commands ssh runs on this machine."""
    GIT_CONFIG = "git-config"
    """A git configuration file (`[section] key = value`): read as the `git config` commands that write it."""
    NODE_CONFIG = "node-config"
    """An .npmrc, .yarnrc or .yarnrc.yml: read as the `npm config set` commands that write it."""
    PIP_CONFIG = "pip-config"
    """A pip.conf (`[global] index-url = ...`): read as the `pip config set` commands that write it."""
    VSCODE_TASKS = "vscode-tasks"
    """A VS Code tasks.json: each task's command runs in a shell when asked for, or by itself
    when the folder opens (`"runOn": "folderOpen"`)."""
    VIM_SCRIPT = "vim-script"
    """A vim or neovim startup file (~/.vimrc, init.vim, a plugin): its `!CMD`, `autocmd ... !CMD`
    and `system('CMD')` run shell commands at every start of the editor."""
    LUA = "lua"
    """A Lua file a tool runs by itself: neovim's init.lua, at every start of the editor."""
    EMACS_LISP = "emacs-lisp"
    """An Emacs startup file (~/.emacs, ~/.emacs.d/init.el): its `(shell-command "CMD")` and
    `(call-process "PROGRAM" ...)` run commands at every start of the editor."""
    CI_PIPELINE = "ci-pipeline"
    """A CI service's pipeline (`.github/workflows/*.yml`, `.gitlab-ci.yml`...): its steps run through a
    shell on the next push, with the repository's secrets."""


class Autorun(NamedTuple):
    """Where a written file runs later by itself: how it is read, and the policy entry it matched."""

    format: AutorunFormat
    entry: str


class DynamicPart(NamedTuple):
    """A run-time part of code: a substitution or a variable reference."""

    span: Span
    source: str
    risks: frozenset[Risk]
    variable: str | None
    tainted: bool
    reads_file: bool = False
    """`$(cat FILE)`, `$(< FILE)`: a file's contents, unseen before it runs."""


class ExecContextSubject(NamedTuple):
    """Code that something executes, and what its dynamic parts are."""

    kind: ContextKind
    label: str
    language: str
    span: Span
    location: Location
    dynamic_parts: tuple[DynamicPart, ...] = ()
    feeder: Span | None = None

    @property
    def risky_parts(self) -> tuple[DynamicPart, ...]:
        return tuple(part for part in self.dynamic_parts if part.risks and not part.tainted)

    @property
    def tainted_parts(self) -> tuple[DynamicPart, ...]:
        return tuple(part for part in self.dynamic_parts if part.tainted)


class SecretKind(str, Enum):
    """Where a secret comes from."""

    FILE = "file"
    """A credential or secret file (`~/.aws/credentials`, `.env`, `*.pem`)."""
    ENVIRONMENT = "environment"
    """All the variables of a process (`env`, `printenv`, `/proc/self/environ`)."""
    VARIABLE = "variable"
    """An environment variable whose name says it holds a secret (`$GITHUB_TOKEN`)."""
    TOKEN = "token"
    """A command that prints a credential (`gh auth token`)."""
    TYPED = "typed"
    """What a user typed or copied: the shell history, the clipboard."""
    PROJECT = "project"
    """No secret: the working directory or the repository whole (`tar c .`, `git bundle create - --all`),
    the project's source leaving; NE009 judges where it goes, SE005 does not count it."""


class Secret(NamedTuple):
    """A secret where it is read: what it is, the command that reads it, and where."""

    kind: SecretKind
    name: str
    """The file as given, the variable (`$GITHUB_TOKEN`), or the command that prints it."""
    reader: str | None
    """The command that reads or prints it; None for a variable."""
    span: Span
    holds: str | None = None
    """For a directory sent with everything in it: the secret file of the policy inside it."""


class Trail(NamedTuple):
    """A secret and the way it travelled: pipes, substitutions, variables, files, filters."""

    secret: Secret
    steps: tuple[str, ...] = ()
    narrowed: bool = False
    """A filter picked a part of it (`grep`, `cut`, `jq`): a single value, as a token is."""

    def via(self, step: str, *, narrowed: bool = False) -> Trail:
        return Trail(self.secret, (*self.steps, step), self.narrowed or narrowed)


class SentSecret(NamedTuple):
    """One way a secret reaches a network sender: in a word it sends (`slot`), or in a
    file or the standard input it sends (`slot` None)."""

    trail: Trail
    slot: Slot | None
    label: str
    """The part of the command that sends it (`curl -d @-`, `curl -H`, `nc`)."""


class SecretFlowSubject(NamedTuple):
    """A command that sends data over the network, and the secrets that reach it."""

    program: str
    flows: tuple[SentSecret, ...]
    destinations: tuple[Host | None, ...]
    """The hosts the data reaches (None: known only at run time)."""
    anyone: bool
    """Whoever connects gets the data (`nc -l`, `sendmail -t`): no destination can be allowed."""
    span: Span
    location: Location


class CodeFactKind(str, Enum):
    """What code in another language does that the rules judge (its shell-outs and
    file calls are audited as the shell commands they equal)."""

    DOWNLOAD_EXECUTE = "download-execute"
    """Runs, as code, data from the network, a decoded blob or a risky command's output."""
    REVERSE_SHELL = "reverse-shell"
    """Wires a network socket to a shell."""
    NETWORK_SEND = "network-send"
    """Sends data over the network (`url`, `data_from`): for the exfiltration rules."""
    UNRESOLVED = "unresolved"
    """Runs a command or code built from data the analysis cannot resolve."""


class DataOrigin(NamedTuple):
    """Where data the code works with comes from: `kind` is `network`, `decoded`,
    `command-output`, `file`, `environment` or `socket`; `detail` the URL, path,
    command or variable name when the code spells it out."""

    kind: str
    detail: str | None


class CodeFactSubject(NamedTuple):
    """One thing code in another language does (python -c, node -e, an awk
    program, a heredoc into ruby...), located in the user's command.

    `label` names the interpreter and the call (`python3 -c -> exec`);
    `detail` says what the rules need in words (where the executed data comes
    from, why the code cannot be resolved). A network send carries its `url`
    and where the sent data comes from (`data_from`).
    """

    kind: CodeFactKind
    label: str
    language: str
    span: Span
    location: Location
    detail: str = ""
    url: str | None = None
    data_from: tuple[DataOrigin, ...] = ()


class FunctionSubject(NamedTuple):
    """A function definition and how its body calls the function itself."""

    name: str
    span: Span
    location: Location
    recursive_spawns: tuple[Span, ...]


class LoopSubject(NamedTuple):
    """A loop whose condition never ends it, and what it starts in background."""

    span: Span
    location: Location
    unbounded: bool
    background_spawns: tuple[tuple[str, Span], ...]


class Sink:
    """Receives what the walk finds. This base ignores everything: it is what
    a silent walk (working out how risky a substitution is) reports to. The
    rule engine subclasses it."""

    def command(self, subject: CommandSubject) -> None:
        """A simple command bash runs."""

    def redirect(self, subject: RedirectSubject) -> None:
        """A redirect of a simple or compound command."""

    def assignment(self, subject: AssignmentSubject) -> None:
        """A variable assignment in any form."""

    def context(self, subject: ExecContextSubject) -> None:
        """A place that executes data as code."""

    def code(self, subject: CodeFactSubject) -> None:
        """What code in another language does (a download run as code, a reverse shell...)."""

    def function(self, subject: FunctionSubject) -> None:
        """A function definition, after its body was walked."""

    def loop(self, subject: LoopSubject) -> None:
        """A while/until loop, after its body was walked."""

    def flow(self, subject: SecretFlowSubject) -> None:
        """Secrets that reach a network sender."""

    def too_deep(self, span: Span, location: Location, label: str) -> None:
        """Nested code past the depth limit (not walked)."""

    def parse_troubles(self, troubles: tuple[ParseTrouble, ...], location: Location) -> None:
        """What the parsers could not read in nested code."""
