"""loop.getaddrinfo() answers in the shape of socket.getaddrinfo(): (family,
type, proto, canonname, address) tuples. A numeric host needs no name
service; a name that cannot be resolved raises socket.gaierror with the
EAI code as errno and gai_strerror()'s text."""
import asyncio
import socket


def show(label, infos):
    for family, kind, proto, canonname, address in infos:
        print(f"{label}: {family.name} {kind.name} proto={proto} canonname={canonname!r} "
              f"host={address[0]} port={address[1]}")


async def attempt(label, coroutine):
    try:
        await coroutine
    except socket.gaierror as error:
        print(f"{label}: gaierror errno={error.errno}: {error.strerror}")


async def main():
    loop = asyncio.get_running_loop()
    show("127.0.0.1", await loop.getaddrinfo("127.0.0.1", "80", type=socket.SOCK_STREAM))
    show("::1", await loop.getaddrinfo("::1", "443", type=socket.SOCK_STREAM))
    show("127.0.0.1 udp", await loop.getaddrinfo("127.0.0.1", "53", type=socket.SOCK_DGRAM))
    await attempt("a name with AI_NUMERICHOST",
                  loop.getaddrinfo("localhost", "80", type=socket.SOCK_STREAM,
                                   flags=socket.AI_NUMERICHOST))
    await attempt("::1 as AF_INET",
                  loop.getaddrinfo("::1", "80", family=socket.AF_INET, type=socket.SOCK_STREAM))


asyncio.run(main())
