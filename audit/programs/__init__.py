"""What the engine knows about programs' command lines, declared as data.

Per program: its options (spellings, and how each takes a value), its option
syntax (clusters, `--long=value`, unique prefixes of long options, options
after operands), its subcommands and global options, its operand positions,
and the files it writes, deletes or unpacks into. One lexer (`lex`) and one reader (`read`) interpret
every declaration; the wrapper and interpreter readers of the analysis, the
writers and the rules all go through them.

Where to add knowledge: a wrapper in `wrappers.py`, an interpreter family in
`interpreters.py`, any other program in the module of its family (file
utilities in `files.py`, network clients in `network.py`, process and
account tools in `system.py`, git in `vcs.py`, the code hosts' CLIs in
`code_hosts.py`,
container engines in `containers.py`, Kubernetes in `kubernetes.py`, cloud
and object-storage CLIs in `cloud.py`, infrastructure as code in `iac.py`,
secrets managers in `secrets.py`, disks, volume managers and power in
`disks.py`, package managers in `packages.py`, hosting platforms and vendors'
CLIs in `vendors.py`, programs that run a command on another host in
`remote.py`, firewalls, mandatory access control and auditing in
`controls.py`, kernel modules, kexec and mounts in `machine.py`, the shell
builtins rules read in `builtins.py`), listed in `KNOWN` (`_known.py`). A CLI
with many nested subcommands is declared by its paths (`_tree.tree`). The threat packs
(`audit/packs`) read these declarations: a pack that judges an option declares
it here, never in the rule.
"""

from ._arg import Arg
from ._grammar import (
    GNU,
    GO_FLAGS,
    POSIX,
    Grammar,
    Lexed,
    Option,
    OptionUse,
    Syntax,
    Takes,
    WordKind,
    attached,
    digits,
    flag,
    lex,
    valued,
)
from ._help import asks_for_help
from ._known import (
    KNOWN,
    KNOWN_NAMES,
    REMOVERS,
    TREE_REMOVERS,
    WRITERS,
    extraction_directories,
    read_command,
    removed_files,
    removed_trees,
    written_files,
)
from ._program import HelpForms, Program, Reading, Subcommand, read
from .archives import tar_archive, tar_extracts
from .files import emptied_files, sed_scripts
from .find import EXEC_ACTIONS, FILE_DESTROYERS, FindScope, deletes_what_it_finds, find_scope, named_finds
from .interpreters import INTERPRETERS, MODULE_PROGRAMS, InterpreterSpec
from .kubernetes import KINDS, resource_kind
from .network import curl_prints_only_numbers, downloaded_files, windows_download
from .packages import forces_major_upgrades, installs_only_the_lock_file, installs_the_project, package_binary
from .remote import (
    ANSIBLE_COMMAND_MODULES,
    ANSIBLE_RUNS_NOTHING,
    MOSH_RUNS_NOTHING,
    SALT_SHELL_FUNCTIONS,
    SSH_LOCAL_COMMANDS,
    SSH_NO_STDIN,
    SSH_RUNS_NOTHING,
)
from .runners import AT_QUERIES, PARALLEL_SOURCES, TMUX_SHELL_COMMANDS
from .sed_script import sed_effects, substituted
from .standard import STANDARD_PROGRAMS
from .wrappers import WRAPPERS, WrapperSpec

__all__ = [
    "ANSIBLE_COMMAND_MODULES",
    "ANSIBLE_RUNS_NOTHING",
    "AT_QUERIES",
    "EXEC_ACTIONS",
    "FILE_DESTROYERS",
    "GNU",
    "GO_FLAGS",
    "INTERPRETERS",
    "KINDS",
    "KNOWN",
    "KNOWN_NAMES",
    "MODULE_PROGRAMS",
    "MOSH_RUNS_NOTHING",
    "PARALLEL_SOURCES",
    "POSIX",
    "REMOVERS",
    "SALT_SHELL_FUNCTIONS",
    "SSH_LOCAL_COMMANDS",
    "SSH_NO_STDIN",
    "SSH_RUNS_NOTHING",
    "STANDARD_PROGRAMS",
    "TMUX_SHELL_COMMANDS",
    "TREE_REMOVERS",
    "WRAPPERS",
    "WRITERS",
    "Arg",
    "FindScope",
    "Grammar",
    "HelpForms",
    "InterpreterSpec",
    "Lexed",
    "Option",
    "OptionUse",
    "Program",
    "Reading",
    "Subcommand",
    "Syntax",
    "Takes",
    "WordKind",
    "WrapperSpec",
    "asks_for_help",
    "attached",
    "curl_prints_only_numbers",
    "deletes_what_it_finds",
    "digits",
    "downloaded_files",
    "emptied_files",
    "extraction_directories",
    "find_scope",
    "flag",
    "forces_major_upgrades",
    "installs_only_the_lock_file",
    "installs_the_project",
    "lex",
    "named_finds",
    "package_binary",
    "read",
    "read_command",
    "removed_files",
    "removed_trees",
    "resource_kind",
    "sed_effects",
    "sed_scripts",
    "substituted",
    "tar_archive",
    "tar_extracts",
    "valued",
    "windows_download",
    "written_files",
]
