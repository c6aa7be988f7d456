#!/usr/bin/env bash
# Rewrites the recorded bytes in tests/GoldenBytes/InBox/golden.txt from the in-box writer of the installed runtime,
# then runs the golden tests. Review the diff before committing: a change in existing bytes means .NET changed.
set -euo pipefail
cd "$(dirname "$0")/../.."
BINARYXML_REGENERATE_GOLDEN=1 dotnet test tests/GoldenBytes -c Release --filter "FullyQualifiedName~InBoxGoldenTests.Regenerate_when_asked"
dotnet test tests/GoldenBytes -c Release --filter "FullyQualifiedName~InBoxGoldenTests"
