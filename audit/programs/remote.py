"""Programs that run a command somewhere else: ssh (and autossh, mosh), `vagrant ssh`,
`lxc`/`incus exec`, the fleet tools ansible (ad hoc) and salt, and the parallel shells (pdsh, pssh, clush).
(`gcloud compute ssh` is declared with gcloud in
`cloud.py`, docker/podman in `containers.py`, kubectl in `kubernetes.py`;
chroot, nsenter, systemd-run and flatpak-spawn are wrappers.)

The analysis finds the command each runs through these declarations
(audit/_analysis/_contexts/_remote.py).
"""

from __future__ import annotations

from ._grammar import POSIX, flag, valued
from ._program import Program, Subcommand

# OpenSSH reads its options before the destination and again after it
# (`ssh host -p 2222 ls`); the first word after those is the command.
_SSH_OPTIONS = (
    flag("-4"), flag("-6"), flag("-A"), flag("-a"), flag("-C"), flag("-f"), flag("-G"), flag("-g"),
    flag("-K"), flag("-k"), flag("-N"), flag("-n"), flag("-q"), flag("-s"), flag("-T"),
    flag("-t"), flag("-V"), flag("-v"), flag("-X"), flag("-x"), flag("-Y"), flag("-y"),
    valued("-B"), valued("-b"), valued("-c"), valued("-D"), valued("-E"), valued("-e"), valued("-F"),
    valued("-I"), valued("-i"), valued("-J"), valued("-L"), valued("-l"), valued("-m"), valued("-O"),
    valued("-o"), valued("-P"), valued("-p"), valued("-Q"), valued("-R"), valued("-S"), valued("-W"),
    valued("-w"),
)  # fmt: skip
SSH = Program(("ssh",), syntax=POSIX, options=(flag("-M"), *_SSH_OPTIONS), operands=("DESTINATION", "COMMAND..."))
# autossh restarts ssh when the connection drops: ssh's arguments, after its own `-M PORT`.
AUTOSSH = Program(
    ("autossh",), syntax=POSIX, options=(valued("-M"), *_SSH_OPTIONS), operands=("DESTINATION", "COMMAND...")
)

# `mosh [OPTIONS] [--] HOST [COMMAND...]`: the command runs on the host (a login shell without
# one); `--ssh=COMMAND` is how mosh reaches the host, run on this machine.
MOSH = Program(
    ("mosh",),
    syntax=POSIX,
    options=(
        valued("-p", "--port"), valued("--ssh"), valued("--client"), valued("--server"), valued("--predict"),
        valued("--family"), valued("--bind-server"), valued("--experimental-remote-ip"), flag("-a"), flag("-n"),
        flag("-4"), flag("-6"), flag("--local"), flag("--no-init"), flag("--no-ssh-pty"), flag("--help"),
        flag("--version"),
    ),
    operands=("HOST", "COMMAND..."),
)  # fmt: skip
MOSH_RUNS_NOTHING = ("--help", "--version")

SSH_RUNS_NOTHING = ("-N", "-G", "-V", "-O", "-Q", "-W", "-s")
"""ssh options with which no command runs: no shell, a printed configuration,
the version, a control command, a query, stdio forwarding, a subsystem."""
SSH_NO_STDIN = ("-n", "-f")
"""ssh options that keep standard input from the remote command."""
SSH_LOCAL_COMMANDS = frozenset({"proxycommand", "localcommand"})
"""`-o` settings (lower case) whose value is shell code ssh runs on the local machine."""

VAGRANT = Program(
    ("vagrant",),
    subcommands=(
        Subcommand(
            ("ssh",),
            options=(valued("-c", "--command"), flag("-p", "--plain"), flag("-t", "--tty"), flag("--no-tty")),
            operands=("MACHINE", "SSH_ARGS..."),
        ),
    ),
)

# `lxc exec [flags] [REMOTE:]INSTANCE [--] COMMAND...`: flags stop at the instance
# (its command's options are its own); incus is its fork.
LXC = Program(
    ("lxc", "incus"),
    subcommands=(
        Subcommand(
            ("exec",),
            syntax=POSIX,
            options=(
                valued("--cwd"), valued("--env"), valued("--group"), valued("--user"), valued("--mode"),
                flag("-T", "--force-noninteractive"), flag("-t", "--force-interactive"), flag("-n", "--disable-stdin"),
            ),
            operands=("INSTANCE", "COMMAND..."),
        ),
        # `config set INSTANCE KEY VALUE`, `config device add INSTANCE NAME TYPE KEY=VALUE...`
        Subcommand(("config",), operands=("ACTION", "ARGUMENTS...")),
    ),
)  # fmt: skip

# `ansible PATTERN [-m MODULE] -a ARGS`: an ad hoc task on every host the pattern selects. The
# command modules run ARGS as a command line (`command`, the default, without a shell).
ANSIBLE = Program(
    ("ansible",),
    options=(
        valued("-m", "--module-name"), valued("-a", "--args"), valued("-i", "--inventory", "--inventory-file"),
        valued("-u", "--user"), valued("--become-user"), valued("--become-method"), valued("-e", "--extra-vars"),
        valued("-f", "--forks"), valued("-l", "--limit"), valued("-c", "--connection"), valued("--private-key", "--key-file"),
        valued("-T", "--timeout"), valued("-B", "--background"), valued("-P", "--poll"), valued("-t", "--tree"),
        valued("--vault-password-file"), flag("-b", "--become"), flag("-K", "--ask-become-pass"), flag("-k", "--ask-pass"),
        flag("-C", "--check"), flag("-D", "--diff"), flag("-o", "--one-line"), flag("-v", "--verbose"),
        flag("--list-hosts"), flag("--syntax-check"),
    ),
    operands=("PATTERN",),
)  # fmt: skip
ANSIBLE_COMMAND_MODULES = frozenset(
    {"command", "shell", "raw", "ansible.builtin.command", "ansible.builtin.shell", "ansible.builtin.raw"}
)
"""Modules whose arguments are a command line run on the hosts."""
ANSIBLE_RUNS_NOTHING = ("--check", "--list-hosts", "--syntax-check")

# `salt [OPTIONS] TARGET FUNCTION [ARG...]` on the minions the target selects; `salt-call` and
# `salt-ssh` run a function here or over ssh. `cmd.run` and kin run their first argument in a shell.
_SALT_OPTIONS = (
    flag("-E", "--pcre"), flag("-L", "--list"), flag("-G", "--grain"), flag("-C", "--compound"), flag("-N", "--nodegroup"),
    flag("-I", "--pillar"), flag("-S", "--ipcidr"), valued("-t", "--timeout"), valued("-b", "--batch", "--batch-size"),
    valued("--out"), valued("-l", "--log-level"), valued("-c", "--config-dir"), valued("--saltenv"), flag("--async"),
    flag("-v", "--verbose"), flag("--local"), flag("--test"),
)  # fmt: skip
SALT = Program(("salt", "salt-ssh"), options=_SALT_OPTIONS, operands=("TARGET", "FUNCTION", "ARG..."))
SALT_CALL = Program(("salt-call",), options=_SALT_OPTIONS, operands=("FUNCTION", "ARG..."))
SALT_SHELL_FUNCTIONS = frozenset(
    {"cmd.run", "cmd.run_all", "cmd.run_stdout", "cmd.run_stderr", "cmd.shell", "cmd.run_bg"}
)
"""Salt functions whose first argument is shell code run on the minions."""

# Parallel shells: the command (its words joined, as ssh does) runs on every host selected.
PDSH = Program(
    ("pdsh",),
    syntax=POSIX,
    options=(
        valued("-w"), valued("-x"), valued("-g"), valued("-X"), valued("-l"), valued("-t"), valued("-u"),
        valued("-f"), valued("-R"), valued("-N"), flag("-a"), flag("-A"), flag("-S"), flag("-b"), flag("-d"),
    ),
    operands=("COMMAND...",),
)  # fmt: skip
PSSH = Program(
    ("pssh", "parallel-ssh"),
    syntax=POSIX,
    options=(
        valued("-h", "--hosts"), valued("-H", "--host"), valued("-l", "--user"), valued("-p", "--par"),
        valued("-o", "--outdir"), valued("-e", "--errdir"), valued("-t", "--timeout"), valued("-O", "--option"),
        valued("-x", "--extra-args"), valued("-X", "--extra-arg"), flag("-i", "--inline"), flag("-A", "--askpass"),
        flag("-P", "--print"), flag("-I", "--send-input"),
    ),
    operands=("COMMAND...",),
)  # fmt: skip
CLUSH = Program(
    ("clush",),
    syntax=POSIX,
    options=(
        valued("-w"), valued("-x"), valued("-g", "--group"), valued("-X"), valued("-l", "--user"),
        valued("-f", "--fanout"), valued("-t", "--connect_timeout"), valued("-u", "--command_timeout"),
        valued("-o", "--options"), valued("-R", "--worker"), flag("-a", "--all"), flag("-b", "--dshbak"),
        flag("-B"), flag("-L"), flag("-q", "--quiet"), flag("-v", "--verbose"), flag("-N"), flag("-S"),
    ),
    operands=("COMMAND...",),
)  # fmt: skip

REMOTE_PROGRAMS: tuple[Program, ...] = (SSH, AUTOSSH, MOSH, VAGRANT, LXC, ANSIBLE, SALT, SALT_CALL, PDSH, PSSH, CLUSH)
