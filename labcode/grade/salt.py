"""课程的盐：每个学生自己的随机数（评分时检查里随机的那几项、讲义上每道题的变体）都由它和学生算出。

同样的盐，重评、重做讲义得到同样的结果；不知道盐，就算不出谁拿到哪一组数，也无法由结果倒推出盐。
"""
from __future__ import annotations

import hashlib
import hmac

MIN_SALT = 8   # 太短的盐可以逐个试出来


def check_salt(salt, *, optional=False):
    """课程的盐至少 :data:`MIN_SALT` 个字符；``optional`` 时也可以是空串（不用盐）。返回它。

    >>> check_salt("abc")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: 课程的盐（--salt 或环境变量 LM_BY_HAND_SALT）至少要 8 个字符，收到 3 个：...
    """
    if optional and salt == "":
        return salt
    if salt is not None and not isinstance(salt, str):
        raise TypeError(f"课程的盐必须是字符串（str），收到 {type(salt).__name__}")
    if (got := len(salt or "")) < MIN_SALT:   # None：没有给盐
        raise ValueError(f"课程的盐（--salt 或环境变量 LM_BY_HAND_SALT）至少要 {MIN_SALT} 个字符，收到 {got} 个："
                         "随便写一串只有你知道的字，记下来，不要公开")
    return salt


def keyed(salt, *parts):
    """以盐为钥匙，对 parts（转成文字，用 ``\\0`` 隔开）算 HMAC-SHA256，返回 32 个字节。"""
    return hmac.new(salt.encode(), "\0".join(map(str, parts)).encode(), hashlib.sha256).digest()
