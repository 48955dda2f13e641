"""Wrappers: programs that run their remaining arguments as a command (`sudo`,
`env`, `timeout`, `xargs`...), with the options each reads before it.

A policy adds wrappers or options with `[wrappers.NAME]` tables (same keys as
the fields below; see default_policy.toml). The analysis peels wrappers off
a command with `audit/_analysis/_wrappers.py`.
"""

from __future__ import annotations

import functools

from .._caches import DECLARED_GRAMMARS
from .._named_tuple import NamedTuple
from ._grammar import Grammar, Option, Syntax, Takes

_WRAPPER_SYNTAX = Syntax(permute=False, numbers=True)
"""How wrappers are read: `nice -10` is one option; the command ends the options."""
_GNU_WRAPPER_SYNTAX = Syntax(permute=False, numbers=True, abbreviations=True)
"""The same, for wrappers that read options with getopt_long: `timeout --sig KILL` is `--signal KILL`."""


class WrapperSpec(NamedTuple):
    """How one wrapper takes its options before the command it runs.

    Options in `value_options`, `code_options` and `split_options` take a
    value. `no_command_options` mean no command runs (`command -v` is a
    lookup); `shell_options` start a shell (`sudo -s`); `exec_options` make
    `joins_command` wrappers run argv as is (`watch -x`); `command_options`
    make a `no_command` wrapper run its operands after all (`runuser -u USER
    CMD`). `positionals` is the number of operands before the command
    (timeout's DURATION); `assignments` accepts NAME=VALUE words (env);
    `joins_command` joins the operands into one shell string (watch);
    `permute` lets options follow operands (GNU getopt: `su - app -c CODE`);
    `starts_shell`: without a command or code it starts a shell, which reads
    standard input (`curl ... | su`); `abbreviations`: a unique prefix of a
    long option names it, as getopt_long reads (`sudo --us root`). `place`
    says where the command runs when that is somewhere else (`in chroot
    {operand}`: a chroot, another process's namespaces, the host outside a
    flatpak sandbox), for the findings' path; `option_places` say it instead
    when one of their options is given (the last given wins). `{operand}` is
    the wrapper's first operand, `{value}` the option's value.
    `program_options`: with one of these options the wrapper is another
    program, which reads the words after the option (`sudo -e FILE` is
    `sudoedit FILE`). `subcommands`: the program is a wrapper only when its
    first operand is one of these words, and the command follows it (`npm exec`,
    `pnpm dlx`); with `own_commands`, a first operand that is in neither list
    is the command itself (`yarn cdk destroy`), and one of `own_commands` is
    the program's own work (`yarn install`). `runs_packages`: the command word names
    a package, perhaps with a version (`npx aws-cdk@2`), and the binary it
    installs runs (`packages.package_binary`).
    """

    name: str
    value_options: frozenset[str] = frozenset()
    no_command_options: frozenset[str] = frozenset()
    shell_options: frozenset[str] = frozenset()
    split_options: frozenset[str] = frozenset()
    code_options: frozenset[str] = frozenset()
    exec_options: frozenset[str] = frozenset()
    positionals: int = 0
    assignments: bool = False
    no_command: bool = False
    joins_command: bool = False
    permute: bool = False
    command_options: frozenset[str] = frozenset()
    starts_shell: bool = False
    abbreviations: bool = False
    place: str = ""
    option_places: tuple[tuple[str, str], ...] = ()
    program_options: tuple[tuple[str, str], ...] = ()
    subcommands: frozenset[str] = frozenset()
    own_commands: frozenset[str] = frozenset()
    runs_packages: bool = False

    @property
    def grammar(self) -> Grammar:
        """Its options as the lexer reads them, built when first read (most wrappers are never met)."""
        return _grammar(self)

    def policy_table(self) -> dict[str, object]:
        """This wrapper as a policy's `[wrappers.NAME]` table would declare it (settings that differ from the defaults)."""
        table: dict[str, object] = {}
        for key in LIST_KEYS:
            spellings: frozenset[str] = getattr(self, key)
            if spellings:
                table[key] = sorted(spellings)
        if self.positionals:
            table["positionals"] = self.positionals
        for key in FLAG_KEYS:
            if getattr(self, key):
                table[key] = True
        if self.place:
            table["place"] = self.place
        if self.option_places:
            table["option_places"] = dict(self.option_places)
        if self.program_options:
            table["program_options"] = dict(self.program_options)
        return table


# By value: equal declarations (the built-in one, and a policy's that repeats it) share one.
@functools.lru_cache(maxsize=DECLARED_GRAMMARS)
def _grammar(spec: WrapperSpec) -> Grammar:
    valued = spec.value_options | spec.code_options | spec.split_options
    programs = frozenset(spelling for spelling, _ in spec.program_options)
    flags = (
        spec.no_command_options | spec.shell_options | spec.exec_options | spec.command_options | programs
    ) - valued
    options = [Option((spelling,), Takes.VALUE) for spelling in sorted(valued)]
    options += [Option((spelling,)) for spelling in sorted(flags)]
    syntax = _GNU_WRAPPER_SYNTAX if spec.abbreviations else _WRAPPER_SYNTAX
    return Grammar(options, syntax, where=f"wrapper {spec.name}")


OPTION_KEYS = (
    "value_options",
    "no_command_options",
    "shell_options",
    "split_options",
    "code_options",
    "exec_options",
    "command_options",
)
"""The fields that list option spellings (a policy adds to them)."""
WORD_KEYS = ("subcommands", "own_commands")
"""The fields that list words other than options (a policy adds to them)."""
LIST_KEYS = (*OPTION_KEYS, *WORD_KEYS)
FLAG_KEYS = (
    "assignments", "no_command", "joins_command", "permute", "starts_shell", "abbreviations", "runs_packages",
)  # fmt: skip
"""The true/false fields (False unless declared)."""
POLICY_KEYS = frozenset(
    {*OPTION_KEYS, *WORD_KEYS, *FLAG_KEYS, "positionals", "place", "option_places", "program_options"}
)
"""The keys of a policy's `[wrappers.NAME]` table."""


def wrapper(
    name: str,
    *,
    value: tuple[str, ...] = (),
    no_command: tuple[str, ...] = (),
    shell: tuple[str, ...] = (),
    split: tuple[str, ...] = (),
    code: tuple[str, ...] = (),
    exec_: tuple[str, ...] = (),
    command: tuple[str, ...] = (),
    positionals: int = 0,
    assignments: bool = False,
    runs_nothing_by_default: bool = False,
    joins_command: bool = False,
    permute: bool = False,
    starts_shell: bool = False,
    abbreviations: bool = False,
    place: str = "",
    option_places: tuple[tuple[str, str], ...] = (),
    program_options: tuple[tuple[str, str], ...] = (),
    subcommands: tuple[str, ...] = (),
    own_commands: tuple[str, ...] = (),
    runs_packages: bool = False,
) -> WrapperSpec:
    """A wrapper declaration (`runs_nothing_by_default` is the spec's `no_command`)."""
    return WrapperSpec(
        name=name,
        value_options=frozenset(value),
        no_command_options=frozenset(no_command),
        shell_options=frozenset(shell),
        split_options=frozenset(split),
        code_options=frozenset(code),
        exec_options=frozenset(exec_),
        positionals=positionals,
        assignments=assignments,
        no_command=runs_nothing_by_default,
        joins_command=joins_command,
        permute=permute,
        command_options=frozenset(command),
        starts_shell=starts_shell,
        abbreviations=abbreviations,
        place=place,
        option_places=option_places,
        program_options=program_options,
        subcommands=frozenset(subcommands),
        own_commands=frozenset(own_commands),
        runs_packages=runs_packages,
    )


_YARN_COMMANDS = (
    "add", "audit", "autoclean", "bin", "cache", "check", "config", "constraints", "create", "dedupe", "explain",
    "generate-lock-entry", "global", "help", "import", "info", "init", "install", "licenses", "link", "list", "login",
    "logout", "node", "npm", "outdated", "owner", "pack", "patch", "patch-commit", "plugin", "policies", "publish",
    "rebuild", "remove", "search", "set", "stage", "tag", "team", "test", "unlink", "unplug", "up", "upgrade",
    "upgrade-interactive", "version", "versions", "why", "workspace", "workspaces",
)  # fmt: skip
_UV_RUN_VALUES = (
    "--directory",
    "--project",
    "--package",
    "-p",
    "--python",
    "--with",
    "--with-editable",
    "--with-requirements",
    "--env-file",
    "--extra",
    "--group",
    "--only-group",
    "--no-group",
    "--index",
    "--default-index",
    "--index-url",
    "--extra-index-url",
    "--find-links",
    "-f",
    "--config-file",
    "--cache-dir",
)
_CONDA_RUN_VALUES = ("-n", "--name", "-p", "--prefix", "--cwd")
_SUDO_VALUES = (
    "-u", "--user", "-g", "--group", "-C", "--close-from", "-D", "--chdir", "-h", "--host", "-p", "--prompt",
    "-r", "--role", "-t", "--type", "-U", "--other-user", "-T", "--command-timeout", "-R", "--chroot",
)  # fmt: skip
_SUDO_NO_COMMAND = (
    "-l", "--list", "-v", "--validate", "-k", "--reset-timestamp", "-K", "--remove-timestamp", "-V", "--version",
)  # fmt: skip
_XARGS_VALUES = (
    "-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "--max-lines", "-n", "--max-args", "-P",
    "--max-procs", "-s", "--max-chars", "--process-slot-var",
)  # fmt: skip
_SCRIPT_VALUES = (
    "-E", "--echo", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-T", "--log-timing", "-m",
    "--logging-format",
)  # fmt: skip
_STRACE_VALUES = (
    "-o", "--output", "-e", "-s", "--string-limit", "-u", "--user", "-E", "--env", "-a", "--columns", "-b",
    "--detach-on", "-I", "--interruptible", "-O", "-P", "--trace-path", "-S", "--summary-sort-by", "-X",
    "--const-print-style", "-U", "--summary-columns",
)  # fmt: skip
_LTRACE_VALUES = (
    "-o", "--output", "-e", "-s", "-u", "-a", "--align", "-n", "--indent", "-x", "-L", "-F", "--config", "-w",
    "--where", "-l", "--library", "-A", "-D", "--debug",
)  # fmt: skip
_XVFB_VALUES = (
    "-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e", "--error-file", "-p",
    "--xauth-protocol", "-l", "--listen-tcp",
)  # fmt: skip
_PERF_VALUES = (
    "-o", "--output", "-e", "--event", "-F", "--freq", "-c", "--count", "-C", "--cpu", "-m", "--mmap-pages",
    "-r", "--repeat", "-G", "--cgroup", "-I", "--interval-print", "--call-graph", "-x", "--field-separator",
    "-u", "--uid",
)  # fmt: skip
_SYSTEMD_RUN_VALUES = (
    "-u", "--unit", "-p", "--property", "--description", "--slice", "--uid", "--gid", "--nice", "-E", "--setenv",
    "--working-directory", "-M", "--machine", "-H", "--host", "--on-active", "--on-boot", "--on-startup",
    "--on-unit-active", "--on-unit-inactive", "--on-calendar", "--timer-property", "--path-property",
    "--socket-property", "--service-type",
)  # fmt: skip
_RUN0_VALUES = (
    "-u", "--user", "-g", "--group", "-D", "--chdir", "--nice", "--setenv", "--unit", "--property", "--description",
    "--slice", "--background", "--machine", "--shell-prompt-prefix", "--area",
)  # fmt: skip
_SYSTEMD_RUN_PLACES = (
    ("-H", "on host {value} via systemd-run"), ("--host", "on host {value} via systemd-run"),
    ("-M", "in machine {value} via systemd-run"), ("--machine", "in machine {value} via systemd-run"),
)  # fmt: skip
_NSENTER_PLACES = (
    ("-t", "in the namespaces of process {value} via nsenter"),
    ("--target", "in the namespaces of process {value} via nsenter"),
)
_FLATPAK_SPAWN_VALUES = (
    "--forward-fd", "--env", "--unset-env", "--directory", "--app-path", "--usr-path", "--sandbox-expose",
    "--sandbox-expose-ro", "--sandbox-expose-path", "--sandbox-expose-path-ro", "--sandbox-flag",
)  # fmt: skip
_UNSHARE_VALUES = (
    "-S", "--setuid", "-G", "--setgid", "-R", "--root", "-w", "--wd", "--propagation", "--setgroups",
    "--map-user", "--map-group", "--map-users", "--map-groups",
)  # fmt: skip
_SETPRIV_VALUES = (
    "--reuid", "--regid", "--groups", "--inh-caps", "--ambient-caps", "--bounding-set", "--securebits",
    "--pdeathsig", "--selinux-label", "--apparmor-profile",
)  # fmt: skip
_NUMACTL_VALUES = (
    "-C", "--cpunodebind", "-N", "-m", "--membind", "-p", "--preferred", "-i", "--interleave", "--physcpubind",
)  # fmt: skip

WRAPPERS: tuple[WrapperSpec, ...] = (
    wrapper("sudo", value=_SUDO_VALUES, no_command=_SUDO_NO_COMMAND, shell=("-s", "--shell", "-i", "--login"),
            assignments=True, abbreviations=True, program_options=(("-e", "sudoedit"), ("--edit", "sudoedit"))),
    wrapper("doas", value=("-u", "-a"), no_command=("-C", "-L"), shell=("-s",)),
    # polkit's pkexec reads its own options (no abbreviations); systemd's run0 reads getopt_long's.
    # Without a command, both start a root shell.
    wrapper("pkexec", value=("--user",), no_command=("--version", "--help"), starts_shell=True),
    wrapper("run0", value=_RUN0_VALUES, no_command=("--version", "-h", "--help"), starts_shell=True,
            abbreviations=True),
    wrapper("env", value=("-u", "--unset", "-C", "--chdir", "-P", "--default-signal", "--ignore-signal",
                          "--block-signal"),
            split=("-S", "--split-string"), assignments=True, abbreviations=True),
    wrapper("nohup"),
    # screen [-dm] [-S NAME] CMD: a (detached) session running CMD; -ls, -r, -x, -X, -wipe run none.
    wrapper("screen", value=("-S", "-c", "-e", "-h", "-p", "-s", "-t", "-T", "-Logfile"),
            no_command=("-ls", "-list", "-r", "-x", "-X", "-wipe", "-v", "-Q")),
    wrapper("time", value=("-f", "--format", "-o", "--output"), abbreviations=True),
    wrapper("timeout", value=("-s", "--signal", "-k", "--kill-after"), positionals=1, abbreviations=True),
    wrapper("nice", value=("-n", "--adjustment"), abbreviations=True),
    wrapper("ionice", value=("-c", "--class", "-n", "--classdata"),
            no_command=("-p", "--pid", "-P", "--pgid", "-u", "--uid"), abbreviations=True),
    wrapper("stdbuf", value=("-i", "--input", "-o", "--output", "-e", "--error"), abbreviations=True),
    wrapper("setsid", abbreviations=True),
    wrapper("chrt", value=("-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"),
            no_command=("-p", "--pid", "-m", "--max"), positionals=1, abbreviations=True),
    wrapper("taskset", no_command=("-p", "--pid"), positionals=1, abbreviations=True),
    wrapper("flock", value=("-w", "--timeout", "-E", "--conflict-exit-code"), code=("-c", "--command"),
            positionals=1, abbreviations=True),
    wrapper("unbuffer"),
    wrapper("exec", value=("-a",)),
    wrapper("command", no_command=("-v", "-V")),
    wrapper("builtin"),
    wrapper("xargs", value=_XARGS_VALUES, abbreviations=True),
    wrapper("busybox"),
    wrapper("toybox"),
    # cmake -E CMD ARGS: cmake's portable commands (`cmake -E rm -rf DIR`); without -E it builds and runs none.
    wrapper("cmake", command=("-E",), runs_nothing_by_default=True),
    wrapper("coproc"),
    wrapper("chroot", value=("--userspec", "--groups"), positionals=1, place="in chroot {operand}",
            abbreviations=True),
    wrapper("runuser", value=("-u", "--user", "-g", "--group", "-G", "--supp-group", "-s", "--shell", "-w",
                              "--whitelist-environment"),
            code=("-c", "--command"), command=("-u", "--user"), runs_nothing_by_default=True, permute=True,
            starts_shell=True, abbreviations=True),
    wrapper("su", value=("-g", "--group", "-G", "--supp-group", "-s", "--shell", "-w", "--whitelist-environment"),
            code=("-c", "--command", "--session-command"), runs_nothing_by_default=True, permute=True,
            starts_shell=True, abbreviations=True),
    wrapper("script", value=_SCRIPT_VALUES, code=("-c", "--command"), runs_nothing_by_default=True, permute=True,
            abbreviations=True),
    wrapper("torsocks"),
    wrapper("sshpass", value=("-p", "-f", "-d", "-P"), no_command=("-h", "-V")),
    wrapper("proxychains", value=("-f",)),
    wrapper("proxychains4", value=("-f",)),
    wrapper("watch", value=("-n", "--interval", "-q", "--equexit"), exec_=("-x", "--exec"), joins_command=True,
            abbreviations=True),
    wrapper("caffeinate", value=("-t", "-w")),
    # Programs that set something up and then run their operands as a command.
    wrapper("ssh-agent", value=("-a", "-E", "-t", "-P", "-O"), no_command=("-k",)),
    wrapper("dbus-launch", value=("--config-file", "--autolaunch")),
    wrapper("dbus-run-session", value=("--config-file", "--dbus-daemon")),
    wrapper("fakeroot", value=("-l", "--lib", "--faked", "-s", "-i", "-b")),
    wrapper("fakechroot", value=("-l", "--lib", "-d", "--elfloader", "-e", "--environment", "-b", "--bindir", "-c",
                                 "--config-dir")),
    wrapper("eatmydata"),
    # faketime TIMESTAMP CMD: the program runs with a fake clock.
    wrapper("faketime", value=("--date-prog",), positionals=1),
    wrapper("nocache"),
    wrapper("chronic"),
    wrapper("catchsegv"),
    wrapper("firejail"),
    wrapper("strace", value=_STRACE_VALUES, no_command=("-p", "--attach", "-V", "--version", "-h", "--help"),
            abbreviations=True),
    wrapper("ltrace", value=_LTRACE_VALUES, no_command=("-p", "-V", "--version", "-h", "--help")),
    wrapper("valgrind"),
    wrapper("xvfb-run", value=_XVFB_VALUES),
    wrapper("systemd-run", value=_SYSTEMD_RUN_VALUES, place="in a transient unit via systemd-run",
            option_places=_SYSTEMD_RUN_PLACES, abbreviations=True),
    wrapper("unshare", value=_UNSHARE_VALUES, abbreviations=True),
    wrapper("nsenter", value=("-t", "--target", "-S", "--setuid", "-G", "--setgid", "-r", "--root", "-w", "--wd"),
            place="in another process's namespaces via nsenter", option_places=_NSENTER_PLACES, abbreviations=True),
    wrapper("flatpak-spawn", value=_FLATPAK_SPAWN_VALUES, place="in a new sandbox via flatpak-spawn",
            option_places=(("--host", "on the host, outside the flatpak sandbox, via flatpak-spawn --host"),)),
    wrapper("setpriv", value=_SETPRIV_VALUES, no_command=("-d", "--dump"), abbreviations=True),
    wrapper("prlimit", no_command=("-p", "--pid"), abbreviations=True),
    wrapper("numactl", value=_NUMACTL_VALUES, no_command=("-H", "--hardware", "-s", "--show")),
    wrapper("cpulimit", value=("-l", "--limit", "-c", "--cpu"), no_command=("-p", "--pid", "-e", "--exe")),
    wrapper("trickle", value=("-d", "-u", "-w", "-t", "-l", "-n")),
    wrapper("sg", code=("-c",), positionals=1),
    # perf runs the command it measures (`perf record -g -- CMD`), unless it attaches to a process.
    wrapper("perf", value=_PERF_VALUES, no_command=("-p", "--pid", "-t", "--tid", "-h", "--help"),
            subcommands=("record", "stat", "trace")),
    # Package runners run a package's binary (`npx aws-cdk@2 destroy` runs cdk); `npx -c` runs shell code.
    wrapper("npx", value=("-p", "--package", "-w", "--workspace"), code=("-c", "--call"), runs_packages=True),
    wrapper("pnpx", value=("-p", "--package"), runs_packages=True),
    wrapper("bunx", value=("-p", "--package"), runs_packages=True),
    wrapper("npm", value=("-p", "--package", "-w", "--workspace", "--prefix"), code=("-c", "--call"),
            subcommands=("exec", "x"), runs_packages=True),
    wrapper("pnpm", value=("-C", "--dir", "-F", "--filter", "--package"), subcommands=("dlx", "exec"),
            runs_packages=True),
    # yarn runs a first word that is not one of its commands as a binary of the project (`yarn cdk destroy`).
    wrapper("yarn", value=("--cwd", "-p", "--package"), subcommands=("dlx", "exec", "run"), own_commands=_YARN_COMMANDS,
            runs_packages=True),
    # Environment managers run a command inside the project's environment (`bundle exec rails ...`, `poetry run
    # python manage.py ...`, `conda run -n ml python x.py`); their other subcommands are their own work.
    wrapper("bundle", value=("--gemfile",), subcommands=("exec",)),
    wrapper("poetry", value=("-C", "--directory", "-P", "--project"), subcommands=("run",)),
    wrapper("uv", value=_UV_RUN_VALUES, subcommands=("run",)),
    wrapper("pipenv", subcommands=("run",)),
    wrapper("pdm", value=("-p", "--project"), subcommands=("run",)),
    wrapper("rye", value=("--pyproject",), subcommands=("run",)),
    wrapper("hatch", value=("-e", "--env"), subcommands=("run",)),
    *(wrapper(conda, value=_CONDA_RUN_VALUES, subcommands=("run",)) for conda in ("conda", "mamba", "micromamba")),
    wrapper("rbenv", subcommands=("exec",)),
    wrapper("pyenv", subcommands=("exec",)),
    # Secret injectors run a command here with the project's secrets in its environment.
    wrapper("railway", value=("-s", "--service", "-e", "--environment"), subcommands=("run",)),
    wrapper("doppler", value=("-p", "--project", "-c", "--config"), code=("--command",), subcommands=("run",)),
    wrapper("op", value=("--env-file", "--account"), subcommands=("run",)),
)  # fmt: skip
"""The wrappers every policy knows (a policy may add more)."""
