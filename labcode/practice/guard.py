"""读者的代码在护栏里运行：每一项有时间限制，打印的内容被收起来，检查本身不会被卡住、退出或刷屏。

时间到了，就在读者的代码里抛出 :class:`TimeUp`。它不是 Exception，``except Exception`` 接不住它；
被裸 ``except:`` 接住时，每隔一小会儿再抛一次，并且在接住它的 except 里面再抛（跳出那一层 try），
直到读者的代码返回。
主线程上用 SIGALRM（Linux、macOS，``time.sleep`` 也能打断）；其余情况（Windows、其他线程）由一个
看门线程把异常送进运行读者代码的线程：纯 Python 的循环能打断，正在执行的一次 C 调用（如
``time.sleep``）要等它返回。``os._exit`` 和让解释器崩溃的代码拦不住：评分时每本笔记本各用一个进程
（:mod:`labcode.grade`）。
"""
from __future__ import annotations

import contextlib
import ctypes
import io
import signal
import sys
import threading
import time

# 一项检查里读者的代码最多运行几秒；一次 check_* 一共最多几秒（用完以后，其余各项不再运行）。
CASE_SECONDS = 3.0
CHECK_SECONDS = 10.0
# 读者的代码打印的内容最多留下多少个字符（其余只计数）。
PRINT_LIMIT = 10_000
# 时间到了以后，每隔几秒再抛一次 TimeUp（读者的代码接住了上一次时）。
REPEAT_SECONDS = 0.05


class TimeUp(BaseException):
    """读者的代码超过了时间限制（BaseException：读者的 ``except Exception`` 接不住它）。"""


class Capture(io.StringIO):
    """收起打印的内容：最多留下 PRINT_LIMIT 个字符，``total`` 是一共打印了多少个字符。"""

    total = 0

    def write(self, text):
        text = str(text)
        self.total += len(text)
        room = PRINT_LIMIT - self.tell()
        if room > 0:
            super().write(text[:room])
        return len(text)


@contextlib.contextmanager
def captured(capture):
    """这一段里 sys.stdout、sys.stderr 的内容都写进 capture；之后原样放回（读者换掉了它们也一样：redirect_* 退出时
    放回的是进来时的那一个）。"""
    with contextlib.redirect_stdout(capture), contextlib.redirect_stderr(capture):
        yield capture


_active = threading.local()   # 这个线程上已经有一个时限在走：里面的（读者的函数又调用了 check_*）沿用它


def within(seconds, compute):
    """调用 compute()，最多 seconds 秒，超时抛出 :class:`TimeUp`。

    TimeUp 只在 compute 的调用里面抛出（送到时正在执行的代码在 compute 之内）：计时器的收尾代码不会被打断，
    不会留下一个还在走的计时器。
    """
    if getattr(_active, "on", False):
        return compute()
    entry = []

    def inside():
        entry.append(sys._getframe())
        return compute()

    _active.on = True
    try:
        main = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
        return (_alarm if main else _watchdog)(seconds, inside, entry)
    finally:
        _active.on = False


def _running_in(frame, entry):
    """frame 是 entry 里那一帧，或者在它里面被调用的。"""
    while frame is not None:
        if entry and frame is entry[0]:
            return True
        frame = frame.f_back
    return False


def _alarm(seconds, inside, entry):
    tracing = sys.gettrace()

    def escape(frame, event, arg):
        # 读者的 except 接住了 TimeUp、正在执行它的处理代码：在这里再抛一次，就跳出了这一层 try
        if event == "line" and isinstance(sys.exception(), TimeUp) and _running_in(frame, entry):
            raise TimeUp
        return escape

    def ring(signum, frame):
        if not _running_in(frame, entry):
            return
        if sys.gettrace() is not escape:            # 上一次的 TimeUp 可能被接住了：盯住接住它的 except
            sys.settrace(escape)
            while frame is not None and frame is not entry[0].f_back:
                frame.f_trace = escape
                frame = frame.f_back
        raise TimeUp

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-3), REPEAT_SECONDS)
    try:
        return inside()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if sys.gettrace() is escape:
            sys.settrace(tracing)


def _async_raise(thread_id, exception):
    """在另一个线程里抛出 exception（None：撤回还没抛出的那一个）；只有 CPython 有这个接口。"""
    setter = getattr(getattr(ctypes, "pythonapi", None), "PyThreadState_SetAsyncExc", None)
    if setter is not None:
        setter(ctypes.c_ulong(thread_id), ctypes.py_object(exception) if exception is not None else None)


def _watchdog(seconds, inside, entry):
    target, lock, done = threading.get_ident(), threading.Lock(), threading.Event()

    def watch():
        wait = seconds
        while not done.wait(wait):
            with lock:
                frame = sys._current_frames().get(target)
                if done.is_set() or not _running_in(frame, entry):
                    return
                _async_raise(target, TimeUp)
            wait = REPEAT_SECONDS

    threading.Thread(target=watch, name="labcode-deadline", daemon=True).start()
    try:
        return inside()
    finally:
        with lock:
            done.set()
            _async_raise(target, None)     # 看门线程刚送出、还没抛出的那一个撤回


class Budget:
    """一次检查的时间：每一项最多 CASE_SECONDS 秒，全部加起来最多 CHECK_SECONDS 秒（评分时改写这两个值）。"""

    def __init__(self):
        self.case = CASE_SECONDS
        self.total = CHECK_SECONDS
        self.spent = 0.0

    @property
    def used_up(self):
        return self.spent >= self.total

    def limit(self):
        """这一项最多还能用几秒。"""
        return max(min(self.case, self.total - self.spent), 0.0)

    def run(self, compute, capture):
        """在时限和 capture 里调用 compute()：返回它的值；超时则抛出 TimeUp（用掉的时间记在账上）。"""
        start = time.perf_counter()
        try:
            with captured(capture):
                return within(self.limit(), compute)
        finally:
            self.spent += time.perf_counter() - start
