"""An option given an empty value (an unset shell variable: ``--date "$DAY"``) is a usage error, never the
option left out."""

import pytest

from .conftest import assert_clean_exit


@pytest.mark.parametrize(
    "args,option",
    [
        (["applies", "marvel-champions", "dash", "--date", ""], "--date"),
        (["applies", "marvel-champions", "dash", "--version", " "], "--version"),
        (["build", "--explain", ""], "--explain"),
        (["build", "--corpus", ""], "--corpus"),
        (["--store", "", "stats"], "--store"),
        (["--corpus", "", "stats"], "--corpus"),
        (["search", "guard", "--game", ""], "--game"),
        (["search", "guard", "--version", ""], "--version"),
        (["terms", "marvel-champions", "--version", ""], "--version"),
    ],
)
def test_an_empty_option_is_refused(cli, args, option):
    result = cli(*args)
    assert_clean_exit(result)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}': must not be empty" in result.output


def test_the_option_left_out_still_answers(cli):
    assert cli("applies", "marvel-champions", "dash").exit_code == 0
