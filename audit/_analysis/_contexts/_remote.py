"""Code that runs somewhere else: on another host (`ssh HOST CMD`, autossh, mosh, `gcloud
compute ssh --command`, `vagrant ssh -c`), on a fleet (`ansible PATTERN -a CMD`, `salt
TARGET cmd.run CMD`), or in a container or pod (`docker`/`podman exec` and `run`,
`kubectl exec ... --`, `lxc`/`incus exec`).

The command is found through the program's declaration (audit/programs) and
audited like local code, one level deeper, with a label saying where it runs
(`on host db via ssh`, `in container app via docker exec`): a command string a
remote shell parses is shell code (ssh joins its words with spaces, as the
remote shell receives them); an argument vector run as is (`docker exec C
rm -rf /`) is a simple command. Standard input goes along where the program
forwards it (`ssh HOST bash -s <<EOF`, `kubectl exec -i`), and a remote login
shell with no command reads its script from it (`ssh HOST <<EOF`).
"""

from __future__ import annotations

from ...programs import (
    ANSIBLE_COMMAND_MODULES,
    ANSIBLE_RUNS_NOTHING,
    MOSH_RUNS_NOTHING,
    SALT_SHELL_FUNCTIONS,
    SSH_LOCAL_COMMANDS,
    SSH_NO_STDIN,
    SSH_RUNS_NOTHING,
    Arg,
    Reading,
    read_command,
)
from ...programs.ansible_modules import module_command
from .._risks import NO_RISKS
from .._subjects import ContextKind, Risk, Stdin
from ._call import Call, ContextWalk
from ._code import code_string, stdin_code
from ._database_clients import database_client_code


def ssh_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`ssh [OPTIONS] DESTINATION [OPTIONS] [COMMAND [ARG...]]` (autossh: the same after its `-M PORT`)."""
    before = read_command(call.name, call.args)
    risks = _local_commands(before, call, walk)
    if not before.operands or before.has(*SSH_RUNS_NOTHING):
        return risks
    destination = before.operands[0]
    after = read_command("ssh", before.operands[1:])  # OpenSSH reads options after the destination too
    risks = risks | _local_commands(after, call, walk)
    if after.has(*SSH_RUNS_NOTHING):
        return risks
    stdin = None if before.has(*SSH_NO_STDIN) or after.has(*SSH_NO_STDIN) else call.stdin
    return risks | remote_shell(walk, f"on host {destination.display()} via {call.name}", after.operands, call, stdin)


def mosh_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`mosh [OPTIONS] HOST [COMMAND...]`, and the `--ssh` command it runs here to reach the host."""
    reading = read_command("mosh", call.args)
    if reading.has(*MOSH_RUNS_NOTHING):
        return NO_RISKS
    risks = NO_RISKS
    for command in reading.values("--ssh"):
        risks = risks | code_string(walk, ContextKind.RUNNER, "mosh --ssh", (command,), "shell", call.frame)
    if not reading.operands:
        return risks
    place = f"on host {reading.operands[0].display()} via mosh"
    # The command is run as an argument vector; mosh keeps standard input for its own terminal.
    return risks | remote_argv(walk, place, reading.operands[1:], call, None)


def _local_commands(reading: Reading, call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`-o ProxyCommand=CMD`, `-o LocalCommand=CMD`: shell code ssh runs on this machine."""
    risks = NO_RISKS
    for setting in reading.values("-o"):
        key, separator, command = (setting.value or "").replace("=", " ", 1).partition(" ")
        if separator and key.lower() in SSH_LOCAL_COMMANDS and command.strip().lower() != "none":
            code = setting.suffix(len(key) + 1)
            risks = risks | code_string(walk, ContextKind.RUNNER, f"ssh -o {key}", (code,), "shell", call.frame)
    return risks


def gcloud_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`gcloud compute ssh INSTANCE --command CMD`, or the ssh arguments after `--`."""
    reading = read_command(call.name, call.args)
    if reading.path[-2:] != ("compute", "ssh") or not reading.operands or reading.has("--dry-run"):
        return NO_RISKS
    place = f"on instance {reading.operands[0].display()} via gcloud compute ssh"
    commands = reading.values("--command")
    if commands:
        return remote_shell(walk, place, commands[-1:], call, call.stdin)
    ssh_arguments = read_command("ssh", reading.operands[1:])
    return remote_shell(walk, place, ssh_arguments.operands, call, call.stdin)


def vagrant_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`vagrant ssh [MACHINE] -c CMD`."""
    reading = read_command(call.name, call.args)
    if reading.path != ("ssh",):
        return NO_RISKS
    machine = f"vagrant machine {reading.operands[0].display()}" if reading.operands else "the vagrant machine"
    return remote_shell(walk, f"on {machine} via vagrant ssh", reading.values("--command")[-1:], call, call.stdin)


# `heroku run`'s own options, which it reads wherever they are among the command's words.
_HEROKU_RUN_VALUES = frozenset({"-a", "--app", "-s", "--size", "-e", "--env", "-r", "--remote", "--type"})
_HEROKU_RUN_FLAGS = frozenset({"-x", "--exit-code", "--no-tty", "--no-notify"})


def heroku_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`heroku run CMD...` (and `run:detached`): the command line runs in a one-off dyno of the app;
    `heroku pg:psql` is psql here, whose statements may run shell commands."""
    reading = read_command(call.name, call.args)
    if reading.path == ("pg:psql",):
        return database_client_code(call, walk)
    if reading.path not in (("run",), ("run:detached",)):
        return NO_RISKS
    start = next(index for index, arg in enumerate(call.args) if arg.value == reading.path[0]) + 1
    words: list[Arg] = []
    skip = False
    for arg in call.args[start:]:
        value = arg.value or ""
        if skip or value in _HEROKU_RUN_FLAGS or value.partition("=")[0] in _HEROKU_RUN_VALUES:
            skip = not skip and value in _HEROKU_RUN_VALUES
            continue
        words.append(arg)
    apps = reading.values("-a", "--app")
    app = f"app {apps[-1].display()}" if apps else "the app"
    if words[:1] and words[0].value == "--":
        words = words[1:]
    # The CLI joins the words with spaces and the dyno's shell runs the line, as ssh's remote shell does.
    return remote_shell(walk, f"in a one-off dyno of {app} via heroku run", tuple(words), call, None)


def fly_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`fly ssh console -C CMD`: the command runs on a machine of the app."""
    reading = read_command(call.name, call.args)
    if reading.path != ("ssh", "console"):
        return NO_RISKS
    place = "on a Fly machine via fly ssh console"
    return remote_shell(walk, place, reading.values("-C", "--command")[-1:], call, None)


def container_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`docker exec [OPTIONS] CONTAINER CMD...` and `docker run [OPTIONS] IMAGE [CMD...]` (podman,
    nerdctl and `docker container` alike); `docker compose exec|run SERVICE CMD...` and docker-compose."""
    reading = read_command(call.name, call.args)
    if not reading.path or not reading.operands:
        return NO_RISKS
    action = reading.path[-1]
    compose = reading.path[0] == "compose" or call.name.endswith("-compose")
    via = f"{call.name} {' '.join(reading.path)}"
    # Compose attaches standard input unless told not to; the engines only with -i.
    stdin = call.stdin if reading.has("--interactive") or (compose and action == "exec") else None
    target = reading.operands[0].display()
    if action == "exec":
        place = f"in service {target} via {via}" if compose else f"in container {target} via {via}"
        return remote_argv(walk, place, reading.operands[1:], call, stdin)
    if action == "run":
        place = f"in a new container of {'service' if compose else 'image'} {target} via {via}"
        # `--entrypoint sh IMAGE -c CODE`: the entrypoint runs with the command as its arguments.
        return remote_argv(walk, place, (*reading.values("--entrypoint")[-1:], *reading.operands[1:]), call, stdin)
    return NO_RISKS


def kubectl_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`kubectl exec [OPTIONS] POD -- CMD...`, `kubectl run NAME --image=IMAGE -- CMD...` and
    `kubectl debug TARGET [--image=IMAGE] -- CMD...` (oc alike)."""
    reading = read_command(call.name, call.args)
    if reading.path not in _KUBECTL_RUNNERS or not reading.operands:
        return NO_RISKS
    stdin = call.stdin if reading.has("--stdin") else None
    where = _KUBECTL_RUNNERS[reading.path].format(reading.operands[0].display())
    return remote_argv(walk, f"{where} via {call.name} {reading.path[0]}", reading.operands[1:], call, stdin)


_KUBECTL_RUNNERS: dict[tuple[str, ...], str] = {
    ("exec",): "in pod {}",
    ("run",): "in a new pod {}",
    ("debug",): "in a debug container for {}",
}
"""kubectl subcommands that run a command in the cluster, and where, by their first operand."""


def lxc_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`lxc exec [OPTIONS] [REMOTE:]INSTANCE [--] CMD...` (incus alike)."""
    reading = read_command(call.name, call.args)
    if reading.path != ("exec",) or not reading.operands:
        return NO_RISKS
    stdin = None if reading.has("--disable-stdin") else call.stdin
    place = f"in container {reading.operands[0].display()} via {call.name} exec"
    return remote_argv(walk, place, reading.operands[1:], call, stdin)


def ansible_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`ansible PATTERN [-m command|shell|raw] -a CMD`: an ad hoc command on every host the pattern
    selects (`command`, the module when none is named, runs it without a shell: read as one all the same);
    `-m file -a 'path=X state=absent'` and the other modules that remove or stop things: the shell
    command each equals (audit/programs/ansible_modules.py)."""
    reading = read_command(call.name, call.args)
    if not reading.operands or reading.has(*ANSIBLE_RUNS_NOTHING):
        return NO_RISKS
    modules = reading.values("--module-name")
    module = modules[-1].value if modules else "command"
    arguments = reading.values("--args")[-1:]
    if module is None:
        return NO_RISKS
    place = f"on hosts {reading.operands[0].display()} via ansible"
    become = _become(reading)
    if module in ANSIBLE_COMMAND_MODULES:
        if not arguments:
            return NO_RISKS
        if not become:
            return remote_shell(walk, place, arguments, call, None)
        # `--become` runs the task's command line as `sudo [-u USER] sh -c CMD` would.
        shell = _words_at(("sh", "-c"), arguments[0])
        return remote_argv(walk, place, (*_words_at(become, arguments[0]), *shell, arguments[0]), call, None)
    # Another module's task: judged as the shell command it equals (`file state=absent` is `rm -rf`),
    # run through sudo with `--become`.
    text = arguments[0].value if arguments else ""
    argv = module_command(module, text) if text is not None else None
    if argv is None:
        return NO_RISKS
    words = _words_at((*become, *argv), arguments[0] if arguments else modules[-1])
    return remote_argv(walk, f"{place} -m {module}", words, call, None)


def _become(reading: Reading) -> tuple[str, ...]:
    """The privilege change `--become` (`-b`) puts before each task's command: sudo, as another user
    with `--become-user`; none without it."""
    if not reading.has("--become"):
        return ()
    users = [user.value for user in reading.values("--become-user")]
    return ("sudo", "-u", users[-1]) if users and users[-1] is not None else ("sudo",)


def _words_at(words: tuple[str, ...], where: Arg) -> tuple[Arg, ...]:
    """Words the engine puts in a command line, located at the word they come from."""
    return tuple(Arg((word,), where.source, where.span) for word in words)


def salt_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`salt TARGET cmd.run CMD` (salt-ssh alike), `salt-call cmd.run CMD`: shell code on the minions,
    or here."""
    reading = read_command(call.name, call.args)
    operands = reading.operands if call.name == "salt-call" else reading.operands[1:]
    if len(operands) < 2 or operands[0].value not in SALT_SHELL_FUNCTIONS or reading.has("--test"):
        return NO_RISKS
    where = "here" if call.name == "salt-call" else f"on minions {reading.operands[0].display()}"
    return remote_shell(walk, f"{where} via {call.name} {operands[0].value}", operands[1:2], call, None)


def parallel_shell_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`pdsh -w HOSTS CMD...`, `pssh -h FILE CMD...`, `clush -a CMD...`: one command string, every host."""
    reading = read_command(call.name, call.args)
    hosts = reading.values("-w", "--host", "--hosts", "-g", "--group")
    where = f"hosts {hosts[0].display()}" if hosts else "every host"
    return (
        remote_shell(walk, f"on {where} via {call.name}", reading.operands, call, None)
        if reading.operands
        else NO_RISKS
    )


def cloud_run_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`aws ecs execute-command --command CMD` (in a task's container) and `az vm run-command invoke
    --scripts CMD` (on a VM)."""
    reading = read_command(call.name, call.args)
    if reading.path == ("ecs", "execute-command"):
        task = reading.values("--task")
        place = f"in task {task[0].display() if task else '?'} via aws ecs execute-command"
        return remote_shell(walk, place, reading.values("--command")[-1:], call, None)
    if reading.path == ("vm", "run-command", "invoke"):
        place = "on an Azure VM via az vm run-command"
        scripts = reading.values("--scripts")
        return remote_shell(walk, place, scripts, call, None) if scripts else NO_RISKS
    return NO_RISKS


# -- the command, where it runs ------------------------------------------------------------


def remote_shell(
    walk: ContextWalk, place: str, words: tuple[Arg, ...], call: Call, stdin: Stdin | None
) -> frozenset[Risk]:
    """Words a remote shell runs as one command string; none: a login shell reading standard input."""
    if words:
        return code_string(walk, ContextKind.RUNNER, place, words, "shell", call.frame, stdin=stdin)
    shell = walk.tables.interpreter("sh")
    if shell is None or stdin is None:
        return NO_RISKS
    return stdin_code(walk, shell, call.name, stdin, call.span, call.frame.labelled(place))


def remote_argv(
    walk: ContextWalk, place: str, words: tuple[Arg, ...], call: Call, stdin: Stdin | None
) -> frozenset[Risk]:
    """An argument vector run as is, somewhere else."""
    if words[:1] and words[0].value == "--":
        words = words[1:]
    if not words:
        return NO_RISKS
    return walk.nested_command(words, call.span, call.frame, place, stdin)
