"""书里讲过的常见错误，用读者的话说出来，并指向讲它的小节。

每条 :class:`~labcode.practice.report.Hint` 的 ``title`` 是错误的名字，``why`` 说明它为什么错，``fix`` 说明怎么改；
``key`` 是给程序用的英文名字（测试和“你来写”格子用它判断认出了哪种错误）。
"""
from __future__ import annotations

import numpy as np

from .report import Hint

# float64 里 exp(x) 不上溢的最大 x（约 709.78）：提示里的数由代码算出。
EXP_LIMIT = f"{np.log(np.finfo(np.float64).max):.2f}"



# ---- 第 1 章：softmax、logsumexp、交叉熵 ----

NO_MAX_SHIFT = Hint(
    "no_max_shift", "没有先减最大值",
    f"直接算 exp(z)：分数超过约 {EXP_LIMIT} 时 exp 上溢成 inf，inf/inf 得到 nan；分数都很负时 exp 全部下溢成 0，"
    "0/0 也是 nan。",
    "先让每个分数减去最大值：s = z - z.max()，再取指数、归一化。数学上结果不变，最大的一项恰好是 e^0 = 1，不会上溢。",
    "ch1-overflow")

NO_MAX_SHIFT_LSE = Hint(
    "no_max_shift", "没有先减最大值",
    f"直接算 log(sum(exp(z)))：分数超过约 {EXP_LIMIT} 时 exp 上溢成 inf，结果是 inf；分数都很负时 exp 全部下溢成 0，"
    "log 0 = -inf。真实的值都是有限的。",
    "m = z.max()，返回 m + log(sum(exp(z - m)))：指数里的数都 ≤ 0，最大的一项恰好是 e^0 = 1。", "ch1-overflow")

NO_MAX_SHIFT_LOSS = Hint(
    "no_max_shift", "没有先减最大值",
    f"直接算 log(sum(exp(z)))：分数超过约 {EXP_LIMIT} 时 exp 上溢成 inf，log(inf) = inf；分数都很负时 exp 全部"
    "下溢成 0，log 0 = -inf。真实的损失都是有限的。",
    "直接从分数算：loss = logsumexp(z) - z[y]，logsumexp 里先减最大值 m = z.max()：m + log(sum(exp(z - m)))。",
    "ch1-overflow")

NO_MAX_SHIFT_PROBS_LOSS = Hint(
    "no_max_shift", "没有先减最大值",
    f"先算概率 exp(z) / sum(exp(z)) 再取 log：分数超过约 {EXP_LIMIT} 时 exp 上溢成 inf，inf/inf = nan；"
    "分数都很负时 exp 全部下溢成 0，0/0 也是 nan，再取 log 还是 nan（用 math.exp 逐个算时，上溢直接报 "
    "OverflowError，全是 0 时报除以 0 的错）。",
    NO_MAX_SHIFT_LOSS.fix, "ch1-overflow")

MIN_SHIFT = Hint(
    "min_shift", "减去的是最小值，不是最大值",
    "z - z.min() 让最小的分数变成 0，其余分数都 ≥ 0；像 [-1000, 0, 1000] 这样跨度大的分数，最大一项减完还是 2000，"
    f"超过约 {EXP_LIMIT}，exp 照样上溢。",
    "减去最大值 m = z.max()：每一项 z - m 都 ≤ 0，指数都在 (0, 1] 里。", "ch1-overflow")

MEAN_SHIFT = Hint(
    "mean_shift", "减去的是平均值，不是最大值",
    "减去任何同一个数，结果在数学上都不变，但只有减最大值能保证不上溢：[-1000, 0, 1000] 减去平均值 0 还是原样，"
    f"最大一项 1000 超过约 {EXP_LIMIT}，exp 上溢成 inf。",
    "减去最大值 m = z.max()：每一项 z - m 都 ≤ 0，指数都在 (0, 1] 里。", "ch1-overflow")

SELF_SHIFT = Hint(
    "self_shift", "每一项减去了它自己",
    "z - z 把所有分数都变成 0，分布被压成均匀分布，和原来的分数无关了。",
    "整行减去同一个数（最大值）：s = z - z.max()。", "ch1-overflow")

DIVIDE_BY_SUM = Hint(
    "divide_by_sum", "分数直接除以分数总和",
    "z / z.sum() 不是 softmax：总和为 0 时除零，分数有正有负时会得到负的或大于 1 的“概率”。",
    "先取指数再归一化：e = np.exp(z - z.max())，p = e / e.sum()。", "ch1-divide-by-sum")

LOG_PROBS = Hint(
    "log_probabilities", "返回的是对数概率 ln p",
    "softmax 给出概率本身：每一项在 0 到 1 之间，总和为 1。你的结果是它们的对数（都 ≤ 0），"
    "那是交叉熵里才用到的 ln p。",
    "去掉最后的 np.log：e = np.exp(z - z.max())，返回 e / e.sum()。", "ch1-softmax")

NOT_NORMALISED = Hint(
    "not_normalised", "没有归一化",
    "概率之和必须是 1；取完指数以后还要除以它们的总和。",
    "p = e / e.sum()，其中 e = np.exp(z - z.max())。", "ch1-softmax")

LSE_MAX_NOT_ADDED = Hint(
    "lse_max_not_added_back", "减了最大值，却忘了把它加回来",
    "ln Σ exp(z_k) = m + ln Σ exp(z_k - m)：减去的 m 在对数外面要加回来，否则结果整体小了 m。",
    "m = z.max()，返回 m + np.log(np.sum(np.exp(z - m)))。", "ch1-logsumexp")

LOG_OF_UNDERFLOW = Hint(
    "log_of_underflow", "先算概率再取对数",
    "p_y 在 float64 里下溢成 0 时，-log(p_y) = -log 0 = inf；真实的损失其实是有限的"
    "（[1000, -1000]、y = 1 时恰好是 2000）。",
    "直接从分数算：loss = logsumexp(z) - z[y]，logsumexp 里先减最大值。", "ch1-extreme")

EPS_IN_LOG = Hint(
    "eps_inside_log", "在对数里加了一个小常数 eps",
    "-log(p_y + eps) 是有限的，但已经是另一个目标函数：p_y 下溢成 0 时它恒等于 -log(eps)，"
    "真实的损失（例如 2000）被压成约 -log(eps)，梯度也几乎为 0。",
    "不加 eps，用稳定的等价公式：loss = logsumexp(z) - z[y]。", "ch1-epsilon")

TARGET_SCORE_MAX = Hint(
    "max_score_not_target", "减去的是最大分数，不是真实目标的分数",
    "交叉熵是 logsumexp(z) - z[y]：减的是真实目标 y 的分数。logsumexp 里为了稳定减去的最大值 m 要在那里加回来，"
    "不是用来代替 z[y] 的；目标恰好是分数最高的候选时两者相同，其余时候都错。",
    "loss = logsumexp(z) - z[y]。", "ch1-logsumexp")

TARGET_OFF_BY_ONE = Hint(
    "target_off_by_one", "取目标分数的下标错了一位",
    "y 本身就是从 0 数的编号，真实目标的分数就是 z[y]，不用再加减 1。z[y - 1]、z[y + 1] 取到的是相邻候选的分数："
    "y = 0 时 z[y - 1] 是 z[-1]，从末尾倒着数，取到最后一个候选，不报错；y 是最后一个编号时 z[y + 1] 越界，"
    "报 IndexError。",
    "直接用 y 取下标：loss = logsumexp(z) - z[y]；一批里每一行取自己的目标：Z[np.arange(N), y]。", "app-indexing")

TARGET_SCORE_SIGN = Hint(
    "target_score_sign", "z[y] 前面的符号反了",
    "ℓ = -ln p_y = -(z_y - logsumexp(z)) = logsumexp(z) - z_y：去括号时 z_y 变成减号。"
    "加上 z[y] 的结果只在 z[y] = 0 时碰巧对。",
    "loss = logsumexp(z) - z[y]。", "ch1-logsumexp")

LOSS_SIGN = Hint(
    "loss_sign", "损失的符号反了",
    "交叉熵是 -ln p_y，不小于 0；你的结果是它的相反数 ln p_y。",
    "loss = logsumexp(z) - z[y]（也就是 -log_softmax(z)[y]）。", "ch1-loss")

LOG_BASE = Hint(
    "log_base", "用了以 2 或 10 为底的对数",
    "本书的损失用自然对数 ln（np.log），log2、log10 得到的数差一个常数倍。",
    "把 np.log2 / np.log10 换成 np.log。", "ch1-loss")

# ---- 第 2 章：梯度与一批的平均损失 ----

MISSING_EY = Hint(
    "missing_minus_e_y", "梯度忘了减去 e_y",
    "∂ℓ/∂z_k = p_k - 1[k = y]：目标那一项还要减 1。你的结果就是 p 本身，各分量之和是 1 而不是 0。",
    "g = softmax(z)，再 g[y] -= 1（也就是 p - e_y）。", "ch2-derivation")

GRAD_OFF_BY_ONE = Hint(
    "target_off_by_one", "减 1 的下标错了一位",
    "e_y 是编号为 y 的分量为 1 的独热向量，y 本身就是从 0 数的编号：减 1 的是 g[y]。g[y - 1]、g[y + 1] 减在了"
    "相邻的候选上：y = 0 时 g[y - 1] 是 g[-1]，从末尾倒着数，减在最后一个候选上，不报错；y 是最后一个编号时 "
    "g[y + 1] 越界，报 IndexError。",
    "g = softmax(z)；g[y] -= 1。", "app-indexing")

GRAD_SIGN = Hint(
    "gradient_sign", "梯度的符号写反了",
    "梯度是 p - e_y，你的结果是 e_y - p：目标那一项应为负（p_y - 1 < 0），其余应 ≥ 0。"
    "写反的梯度各分量之和同样是 0，“和为 0”的检查抓不住它，中心差分才能抓住。",
    "g = softmax(z)；g[y] -= 1。", "ch2-derivation")

ALL_MINUS_ONE = Hint(
    "every_component_minus_one", "每一项都减了 1",
    "-e_y 只在目标那一项减 1，其余分量不动：e_y 是编号为 y 的分量为 1、其余为 0 的独热向量。"
    "你的结果是 p - 1，各分量之和是 1 - V 而不是 0。",
    "g = p.copy()；g[y] -= 1。", "ch2-derivation")

WRT_PROBABILITY = Hint(
    "derivative_wrt_probability", "求的是对概率 p_y 的导数，不是对分数 z 的导数",
    "-ln p_y 对 p_y 的导数是 -1/p_y，但我们要的是损失对分数 z_k 的导数：p_y 通过 softmax 依赖每一个分数，"
    "按链式法则整理下来是 p_k - 1[k = y]：不只目标那一项，其余分量（p_k）也不为 0。",
    "g = softmax(z)；g[y] -= 1（也就是 p - e_y）。", "ch2-derivation")

LABEL_SUBTRACTED = Hint(
    "label_subtracted", "把整数编号 y 直接从概率向量里减去",
    "p - y 让每一项都减去了 y 这个数；要减的是独热向量 e_y：只有编号为 y 的那一项减 1。",
    "g = p.copy()；g[y] -= 1。", "ch2-derivation")

GLOBAL_MAX = Hint(
    "max_of_whole_batch", "减去的是整批的最大值，不是每一行的最大值",
    "每一行（一个位置）要减它自己的最大值。整批只减一个最大值时，分数比它低很多的行（例如低 1000）指数全部下溢成 0，"
    "这一行的 log(0) 或 0/0 给出 inf 或 nan。",
    "m = logits.max(axis=1, keepdims=True)，s = logits - m；再按行算 logsumexp。", "ch1-overflow")

KEEPDIMS = Hint(
    "keepdims_missing", "按行求最大值或总和后，少了 keepdims=True",
    "logits.max(axis=1) 的形状是 (N,)，与 (N, V) 的 logits 相减时 NumPy 把它沿最后一轴广播："
    "每一列减去同编号那一行的值。N ≠ V 时报形状不合的错，N = V 时不报错，数却是错的。",
    "logits.max(axis=1, keepdims=True)（形状 (N, 1)），或者 logits.max(axis=1)[:, None]；求总和时也一样。",
    "ch4-mistakes")

DENOMINATOR_ALL = Hint(
    "denominator_counts_ignored", "分母把被忽略的位置也算进去了",
    "平均损失要除以有效目标的个数；除以全部位置时，被忽略的位置（目标 -100）虽然损失为 0，却占了一份分母，"
    "结果偏小（书里的例子：总损失 10、5 个有效目标，应为 2，除以 6 个位置得 1.667）。",
    "valid = targets != -100，只在有效位置上取损失，再除以 valid.sum()。", "ch2-denominator")

SUM_NOT_MEAN = Hint(
    "sum_not_mean", "求了和，没有取平均",
    "要的是有效目标上的平均损失；总和会随一批的大小变化。",
    "把总和除以有效目标的个数 valid.sum()。", "ch2-denominator")

IGNORE_AS_INDEX = Hint(
    "ignore_index_used", "拿 -100 当成了下标",
    "-100 只标记“这个位置不计分”，不是候选编号；拿它去取下标，NumPy 会从末尾倒着数（候选少于 100 个时报 IndexError）。",
    "先用掩码 valid = targets != -100 挑出有效位置，只在这些位置上取 logits[i, targets[i]]。", "ch2-batch")

IGNORED_COUNTED = Hint(
    "ignored_loss_counted", "被忽略的位置也算进了损失",
    "把 -100 换成某个合法编号（比如 0）只是为了能取下标；换完以后，这些位置的损失还得去掉，否则它们被当成了真的目标。",
    "per = logsumexp(z) - z[y]（y 里的 -100 先换成 0），再 per = np.where(valid, per, 0)，总和除以 valid.sum()。",
    "ch2-batch")

ONE_SIDED = Hint(
    "one_sided_difference", "只往一侧走了一步（前向或后向差分）",
    "(f(x + δe_k) - f(x)) / δ 的误差约与 δ 成正比，中心差分两侧相减时二次项抵消，误差约与 δ² 成正比；"
    "δ 取 0.1 这样的大值时，两者差得很明显。",
    "两侧各走一步：(f(x + δe_k) - f(x - δe_k)) / (2δ)。", "ch2-finite-diff")

PRECEDENCE = Hint(
    "division_precedence", "分母少了括号：/ 2 * delta",
    "a / 2 * delta 从左到右算，是 (a / 2) * delta：乘了 δ/2，而不是除以 2δ，结果是正确值的 δ² 倍"
    "（δ = 1e-5 时小了 10 个数量级）。",
    "把分母括起来：(f(x + step) - f(x - step)) / (2 * delta)。", "ch2-finite-diff")

ONE_POINT_AT_X = Hint(
    "one_point_at_x", "两次函数值里有一次是在 x 本身上算的",
    "中心差分要 x + δe_k 和 x - δe_k 两个点。在 x 上原地改时，先加 δ、再减 δ，回到的是 x 本身（要减 2δ 才到 "
    "x - δe_k）；xp = x、xm = x 没有 copy 时，改一个也就改了另一个。算出的只有前向（或后向）差分的一半。",
    "用两个新数组：x + step 和 x - step（step 只有编号为 k 的分量是 δ）；原地改的话，记下 old = x[k]，"
    "先 x[k] = old + delta，再 x[k] = old - delta，最后 x[k] = old。", "ch2-finite-diff")

HALF_DENOMINATOR = Hint(
    "denominator_delta", "分母写成了 δ，应为 2δ",
    "x + δe_k 与 x - δe_k 相距 2δ，两次函数值之差要除以这段距离；只除以 δ，每个分量都大了一倍。",
    "grad[k] = (f(x + δe_k) - f(x - δe_k)) / (2 * delta)。", "ch2-finite-diff")

ALL_AT_ONCE = Hint(
    "all_components_at_once", "所有分量一起扰动了",
    "x + delta 给每个分量都加了 δ，算出的是沿全 1 方向的变化率（各个偏导数之和），每个分量都得到同一个数。"
    "偏导数只让编号为 k 的分量动，其余分量不动。",
    "对每个编号 k 单独扰动：step = np.zeros_like(x)；step[k] = delta；用 x + step 和 x - step。", "ch2-finite-diff")

ROWS_AT_ONCE = Hint(
    "whole_rows_at_once", "只沿第一个轴循环，一次扰动了一整行",
    "x 是矩阵（或更高维的数组）时，range(len(x)) 只数到行数，x[k] 是一整行：一次扰动了整行，"
    "算出的是这一行各分量偏导数之和，又被填进整行。",
    "遍历每一个下标：for k in np.ndindex(x.shape)，step[k] = delta 只动一个分量；或者在 x.reshape(-1) 上逐个改。",
    "ch2-finite-diff")

NOT_RESTORED = Hint(
    "perturbation_not_restored", "扰动完没有把 x 复原",
    "在 x 上原地加减 δ 以后没有改回原值，算后面的分量时 x 已经被挪动过，求的是另一个点上的差分。",
    "每个分量算完就复原：old = x[k]，……，x[k] = old；或者每次在 x 的副本上扰动（x.copy()）。", "ch2-finite-diff")

X_MODIFIED = Hint(
    "input_modified", "x 被改动了（调用后与调用前不同）",
    "梯度算对了，可函数返回以后 x 与调用前不一样。拿它核对模型的参数（比如 W）时，参数会被悄悄改掉，"
    "后面的训练就从一个谁也没选过的点出发。再减一次 δ 也不算复原：加减各一次可能留下末位的舍入误差。",
    "在副本上扰动（x + step、x.copy()），x 本身一次也不写；或者先存 old = x[k]，算完用 x[k] = old 放回原值。",
    "ch2-finite-diff")

SHARED_ARRAY = Hint(
    "perturbed_array_shared", "每个分量都是 0：两次函数值是在同一点上算的",
    "最常见的原因是 xp = x、xm = x 没有 copy：三个名字是同一块内存，改 xp[k] 也改了 x 和 xm，加上的 δ 又被减掉，"
    "f(xp) 和 f(xm) 算的是同一个点，相减得 0。也可能是循环里算了差商，却没有写进 grad[k]。",
    "用 xp = x.copy()、xm = x.copy() 各自扰动，或者 x + step、x - step（它们本来就是新数组）；"
    "再确认每个差商都存进了 grad[k]。", "ch2-finite-diff")

DELTA_IGNORED = Hint(
    "delta_ignored", "没有用传入的 delta",
    "差分步长是参数 delta；函数里写死了另一个数（比如 1e-5），传入 0.1 时结果对不上。",
    "扰动和分母都用参数 delta：x + delta * e_k，除以 2 * delta。", "ch2-step-size")

FLATTENED_INPUT = Hint(
    "wrong_shape_to_f", "传给 f 的数组形状不对",
    "f 接收与 x 同形状的数组。把矩阵 x 压平（或只传一行）再交给 f，f 里的矩阵乘法就对不上形状了。",
    "在与 x 同形状的副本上扰动：step = np.zeros_like(x)；step[k] = delta，k 用 np.ndindex(x.shape) 遍历；"
    "或者在 x.copy() 的 reshape(-1) 视图上改，把原形状的副本交给 f。", "ch2-finite-diff")

INTEGER_INPUT = Hint(
    "integer_input", "整数数组里存不下 delta",
    "x 是整数数组时，np.zeros_like(x)、x.copy() 也都是整数数组：step[k] = delta 存成了 0，x[k] = x[k] + delta "
    "被截断回原值（x[k] += delta 则报类型错误）。两次函数值在同一点上算，梯度全是 0；grad 建成整数数组时，"
    "差商也被截断成整数。",
    "开头先把 x 变成浮点数组：x = np.asarray(x, dtype=float)，再 np.zeros_like(x)、x + step。", "ch2-finite-diff")

# ---- 第 3 章：嵌入的反向 ----

OVERWRITE = Hint(
    "repeated_ids_overwrite", "重复的编号只留下了一份梯度",
    "dE[ids] += dH 先按 ids 读出各行、加上、再写回：同一个编号出现几次就被写几次，只留下了一份，其余的丢了"
    "（NumPy 不保证留下的是哪一份）。逐个赋值 dE[ids[t]] = dH[t] 也一样。",
    "np.add.at(dE, ids, dH)，或者逐个位置累加：for t in range(T): dE[ids[t]] += dH[t]。", "ch3-overwrite-bug")

MISSING_TRANSPOSE = Hint(
    "missing_transpose", "独热矩阵忘了转置",
    "X 的形状是 (T, V)，dE 的形状是 (V, d)：要的是 X 的转置乘 dH，(V, T) @ (T, d) = (V, d)。X @ dH 只在 V = T 时"
    "乘得起来，那时形状也对，数值却错了。",
    "dE = X.T @ dH。", "ch3-gradient")

DE_SHAPE = Hint(
    "gradient_shape_of_dH", "dE 建成了 dH 的形状",
    "dE 是嵌入表 E 的梯度，与 E 同形状 (vocab_size, d)：词表里每个编号一行，没被读到的行是 0。"
    "np.zeros_like(dH) 的形状是 (T, d)，编号大于等于 T 的行放不下。",
    "dE = np.zeros((vocab_size, dH.shape[1]))，再 np.add.at(dE, ids, dH)。", "ch3-gradient")

# ---- 第 4 章：bigram 的损失与梯度 ----

WRONG_AXIS = Hint(
    "wrong_axis", "沿错误的轴做了 softmax",
    "每一行（一个前一个字）的分数要在这一行里归一化：沿候选轴 axis=1。沿 axis=0 归一化时，每一列之和为 1，"
    "不同行互相干扰，代码却照常运行。",
    "probs = softmax(W[xs], axis=1)，或者对每一行单独做 softmax。", "ch4-network")

SWAPPED_PAIRS = Hint(
    "xs_ys_swapped", "xs 和 ys 用反了",
    "xs 是每个训练对的前一个字，用来取分数的行：logits = W[xs]；ys 是后一个字，是要预测的目标。"
    "反过来就成了“由后一个字预测前一个字”。",
    "logits = W[xs]，目标是 ys：对每个训练对 r 取 -log probs[r, ys[r]]，再求平均。", "ch4-network")

W_COLUMNS = Hint(
    "columns_of_W", "取的是 W 的列，不是行",
    "W 编号为 i 的行是“前一个字是 i”时各个候选的分数（编号为 k 的列给候选 k 打分）：独热向量乘 W 取出的是一行，"
    "W[xs]。W[:, xs] 取的是列，把前一个字当成了候选。",
    "logits = W[xs]（形状 (N, V)），梯度也加回这些行：np.add.at(dW, xs, dlogits)。", "ch4-network")

BIGRAM_OVERWRITE = Hint(
    "repeated_ids_overwrite", "重复的前一个字只留下了一份梯度",
    "同一个前一个字在 xs 里出现多次时，dW 的那一行要把每一次的 (p - e_y)/N 都加上；dW[xs] += dlogits "
    "只留下了一份，其余的丢了（NumPy 不保证留下的是哪一份）。",
    "np.add.at(dW, xs, dlogits)，或者逐条累加：for r in range(N): dW[xs[r]] += dlogits[r]。", "ch3-overwrite-bug")

NOT_DIVIDED_BY_N = Hint(
    "gradient_not_divided", "梯度没有除以 N",
    "损失是 N 个训练对的平均，所以每一项梯度 p - e_y 都要再除以 N。",
    "逐条写法：dlogits = (probs - onehot) / N；计数写法：dW = (n[:, None] * p - C) / N。", "ch4-gradient")

BIGRAM_SUM_NOT_MEAN = Hint(
    "sum_not_mean", "求了和，没有取平均",
    "要的是 N 个训练对上的平均损失；总和会随训练对的多少变化。",
    "把总和除以训练对的个数 N（逐条写法里是 len(xs)，计数写法里是 C.sum()）。", "ch4-gradient")

ALL_TARGETS_PER_ROW = Hint(
    "all_targets_per_row", "每一行取了所有目标的概率",
    "logp[:, ys] 的形状是 (N, N)：每一行都取了全部 N 个目标，而不是只取自己那一个；再求平均，损失就错了，"
    "代码却照常运行。",
    "两个索引数组配对使用：logp[np.arange(N), ys]，只取 N 个数。", "ch4-network")

GRAD_ROWS_BY_YS = Hint(
    "gradient_rows_by_ys", "梯度加到了目标 ys 的行上",
    "分数是 W[xs] 取出来的：编号为 r 的训练对的 (p - e_y)/N 要加回它的前一个字 xs[r] 那一行；"
    "ys 只决定哪一列减去 1。",
    "np.add.at(dW, xs, dlogits)。", "ch4-gradient")

COUNTS_MISSING_N = Hint(
    "counts_missing_n", "计数写法的梯度少乘了 n_i",
    "编号为 i 的行有 n_i 个训练对，每个都贡献一份 p_i，合起来是 n_i p_i；(p - C)/N 只算了一份，"
    "没出现过的行（n_i = 0）还多出了 p_i/N。",
    "dW = (n[:, None] * p - C) / N，其中 n = C.sum(axis=1)。", "ch4-gradient")

COUNTS_N_COLUMNS = Hint(
    "counts_n_broadcast", "n 乘到了列上",
    "要的是编号为 i 的行整行乘这一行的训练对个数 n_i（行和）；你的写法把一个数乘到了编号为 k 的整列上。"
    "可能是 n = C.sum(axis=1) 的形状是 (V,)，n * p 沿列广播；也可能是沿 axis=0 求了和，"
    "C.sum(axis=0, keepdims=True) 是形状 (1, V) 的列和。",
    "n = C.sum(axis=1, keepdims=True)（形状 (V, 1)），再 n * p；或者 n = C.sum(axis=1)，n[:, None] * p。",
    "ch4-gradient")

COUNTS_NO_MAX_SHIFT = Hint(
    "no_max_shift", "没有先减最大值",
    f"直接算 exp(W)：分数超过约 {EXP_LIMIT} 时 exp 上溢成 inf。损失里 log Σ exp(W) 成了 log(inf) = inf，"
    "损失就是 inf（先算概率再取对数时是 nan）；梯度里的概率 exp(W) / Σ exp(W) 是 inf/inf = nan。"
    "真实的损失和梯度都是有限的。",
    "每一行先减这一行的最大值：s = W - W.max(axis=1, keepdims=True)，"
    "logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))，p = np.exp(logp)。", "ch1-overflow")

COUNTS_LOG_OF_UNDERFLOW = Hint(
    "log_of_underflow", "先算概率再取对数",
    "某一格的 p 下溢成 0 时 ln p = -inf：那一格的计数是 0 时 0 × (-inf) = nan，不是 0，整个和就成了 nan"
    "（计数不是 0 时是 inf）。真实的损失其实是有限的。",
    "直接从分数算 ln p：s = W - W.max(axis=1, keepdims=True)，logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))，"
    "loss = -(C * logp).sum() / N；logp 处处有限，0 × logp 就是 0。", "ch1-extreme")

COUNTS_GRAD_SIGN = Hint(
    "gradient_sign", "梯度的符号写反了",
    "计数写法的梯度是 (n_i p_i - C_i)/N：模型给的次数减去数到的次数。你的结果是它的相反数 (C_i - n_i p_i)/N，"
    "沿着它“下降”，损失反而上升。",
    "dW = (n[:, None] * p - C) / N，其中 n = C.sum(axis=1)，p 是按行做的 softmax。", "ch4-gradient")

COUNTS_WRONG_AXIS = Hint(
    "wrong_axis", "沿错误的轴做了 softmax",
    "W 的每一行是“前一个字是 i”时各个候选的分数，要在这一行里归一化：沿 axis=1。沿 axis=0 时每一列之和为 1，"
    "不同行互相干扰，代码却照常运行。",
    "每行先减最大值：s = W - W.max(axis=1, keepdims=True)，logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))。",
    "ch4-gradient")

COUNTS_ZERO_TIMES_INF = Hint(
    "zero_times_inf", "0 × (-inf) 得到了 nan",
    "W = ln C 这样的分数在零计数的格子上是 -inf（第 4 章：有限的分数给不出恰好为 0 的概率），那一格的 ln p 也是 -inf。"
    "C * logp（或 C * W）在这一格算的是 0 × (-inf)，浮点数里它是 nan，不是 0，整个和就成了 nan。"
    "约定 0·ln 0 = 0，要由代码自己做到。",
    "只在 C > 0 的格子上取 ln p：loss = -(C * np.where(C > 0, logp, 0.0)).sum() / N（np.where 先把 -inf 换成 0，"
    "再乘），或者 mask = C > 0；loss = -(C[mask] * logp[mask]).sum() / N。", "ch4-identity")

# ---- 第 4 章：训练循环 ----

DESCENT_SIGN = Hint(
    "descent_sign", "更新的方向反了",
    "梯度指向损失上升最快的方向；W + lr·dW 顺着它走，损失一步比一步大。梯度下降要逆着梯度走。",
    "W = W - lr * dW。", "ch4-training")

LR_IGNORED = Hint(
    "learning_rate_ignored", "更新时没有乘学习率",
    "一步更新是 W ← W - lr·dW；写成 W - dW，等于不管传进来的 lr 是多少，都按 1 来走。",
    "W = W - lr * dW。", "ch4-training")

STALE_GRADIENT = Hint(
    "stale_gradient", "梯度只在循环外算了一次",
    "W 一变，梯度就跟着变；一直用出发点的 dW，走的是一条直线，不是梯度下降。",
    "每一步都在当前的 W 上重新算：loss, dW = loss_and_grad(W)，放在循环里面。", "ch4-training")

W_NOT_UPDATED = Hint(
    "weights_not_updated", "W 没有更新",
    "每一步的损失都一样：W - lr * dW 算出来以后没有赋回给 W（或者每一步都从出发时的 W 重新算）。",
    "W = W - lr * dW（或 W -= lr * dW），下一步在新的 W 上算损失和梯度。", "ch4-training")

START_W_RETURNED = Hint(
    "start_weights_returned", "返回的是出发时的 W",
    "损失都对，返回的 W 却还是出发点：更新落在了另一个变量上，返回时用错了名字。",
    "循环里更新的是哪个变量，最后就返回哪个：return W, losses。", "ch4-training")

# ---- 参数被原地改动了 ----

def _modified(name: str, example: str, instead: str, label: str) -> Hint:
    """读者的函数返回了对的值，却原地改动了参数 name（example 是这样的写法，instead 是不改参数的写法）。"""
    return Hint(
        "input_modified", f"{name} 被改动了（调用后与调用前不同）",
        f"结果是对的，可函数返回以后，调用者手里的 {name} 变了：{example} 这样的原地运算改的正是传进来的那个数组，"
        "不是一份副本。调用者以后再用它（再算一次、画图、接着训练）时，用的已经是被改过的数。",
        f"不要在 {name} 上原地改：{instead}，得到的是新数组；非原地改不可时，先复制一份：{name} = {name}.copy()。",
        label)


Z_MODIFIED = _modified("z", "z -= z.max()、np.exp(z, out=z)", "s = z - z.max()", "ch1-overflow")
LOGITS_MODIFIED = _modified("logits", "logits -= logits.max(axis=1, keepdims=True)",
                            "s = logits - logits.max(axis=1, keepdims=True)",
                            "ch2-batch")
TARGETS_MODIFIED = _modified("targets", "targets[targets == -100] = 0", "safe = np.where(valid, targets, 0)",
                             "ch2-batch")
IDS_MODIFIED = _modified("ids", "ids.sort()", "order = np.sort(ids)", "ch3-gradient")
DH_MODIFIED = _modified("dH", "dH *= 2、dH[...] = 0", "scaled = dH * 2", "ch3-gradient")
W_MODIFIED = _modified("W", "W -= W.max(axis=1, keepdims=True)", "s = W - W.max(axis=1, keepdims=True)",
                       "ch4-network")
PAIRS_MODIFIED = {name: _modified(name, f"{name}.sort()", f"np.sort({name})", "ch4-network")
                  for name in ("xs", "ys")}
C_MODIFIED = _modified("C", "C += 1、C[C == 0] = 1", "smoothed = C + 1", "ch4-gradient")
START_MODIFIED = _modified("W", "W -= lr * dW", "W = W - lr * dW", "ch4-training")

# ---- 第 5 章：插值（退回到单字频率） ----

UNIGRAM_NOT_SMOOTHED = Hint(
    "unigram_not_smoothed", "单字频率没有加一",
    "单字频率直接用 C.sum(axis=0) / N：一次也没作过后一个字的字（比如 □）概率是 0，插值以后也只剩 γ 那一项，"
    "一旦它出现在没有计数的行后面，−ln 0 就是 +∞。",
    "p̂ = (C.sum(axis=0) + 1) / (N + V)：每个字的次数各加一（拉普拉斯平滑），分母加 V 让总和仍是 1。", "ch5-backoff")

UNIGRAM_FROM_ROWS = Hint(
    "unigram_from_rows", "单字频率用了行和",
    "C.sum(axis=1) 数的是每个字作前一个字的次数；要退回的是后一个字 y 本身有多常见，它作后一个字的次数是列和。"
    "（书里的数据每个成语两端都补了“.”，每个字作前一个字和作后一个字的次数相同，行和恰好等于列和；"
    "一般的计数矩阵不是这样，这里检查用的就不是。）",
    "p̂ = (C.sum(axis=0) + 1) / (N + V)，再按 ys 取出：p̂[ys]。", "ch5-backoff")

UNIGRAM_NOT_NORMALISED = Hint(
    "unigram_not_normalised", "单字频率加了一，分母没有加 V",
    "每个字的次数都加了一，总和就多了 V；分母还是 N 时，p̂ 加起来大于 1，不是概率分布，插值出来的概率也偏大，损失偏小。",
    "分母跟着加 V：p̂ = (C.sum(axis=0) + 1) / (N + V)。", "ch5-backoff")

UNIGRAM_N_FROM_PAIRS = Hint(
    "unigram_n_from_pairs", "单字频率的 N_C 用了 len(xs)",
    "N_C 是训练集里训练对的总数 C.sum()；len(xs) 是这次要打分的字对的个数，与训练集无关：换一批字对，单字频率就变了，"
    "p̂ 加起来也不再是 1。",
    "N_C = C.sum()：p̂ = (C.sum(axis=0) + 1) / (C.sum() + V)。", "ch5-backoff")

GAMMA_SWAPPED = Hint(
    "gamma_swapped", "γ 乘错了项",
    "γ 是计数概率 C_xy / n_x 的权重，1 − γ 才是单字频率的；你的写法把两者对调了（γ = 0.5 时看不出来）。",
    "p = γ · C[xs, ys] / n[xs] + (1 − γ) · p̂[ys]。", "ch5-backoff")

EMPTY_ROW_KEEPS_GAMMA = Hint(
    "empty_row_keeps_gamma", "没有计数的行，单字频率还乘着 1 − γ",
    "n_x = 0 的行，计数那一项没有定义；把它当成 0 以后，这一行的概率只剩 (1 − γ) p̂，加起来不到 1。",
    "没有计数的行整个退回单字频率：权重用 w = np.where(n[xs] > 0, gamma, 0.0)，"
    "p = w · C[xs, ys] / np.maximum(n[xs], 1) + (1 − w) · p̂[ys]。", "ch5-backoff")

INTERPOLATED_SUM_NOT_MEAN = Hint(
    "sum_not_mean", "求了和，没有取平均",
    "要的是字对上的平均 −ln p；总和会随字对的多少变化。",
    "把总和除以字对的个数 len(xs)，或者直接用 np.mean。", "ch5-backoff")

INTERPOLATED_SIGN = Hint(
    "loss_sign", "损失的符号反了",
    "平均负对数似然是 −ln p 的平均，不小于 0；你的结果是它的相反数。",
    "返回 -np.mean(np.log(p))。", "ch5-backoff")


# ---- 没认出具体错误时的一般提示 ----


def _advice(key: str, fix: str, label: str) -> Hint:
    """没有认出具体错误时给的提示：没有错误的名字和原因，只说该怎么写。"""
    return Hint(f"advice_{key}", "", "", fix, label)


ADVICE_SOFTMAX = _advice(
    "softmax",
    "三步：s = z - z.max()，e = np.exp(s)，返回 e / e.sum()；返回与 z 同形状的 NumPy 数组。", "ch1-softmax")

ADVICE_LOGSUMEXP = _advice(
    "logsumexp",
    "m = z.max()，返回 m + np.log(np.sum(np.exp(z - m)))，一个数。", "ch1-logsumexp")

ADVICE_CROSS_ENTROPY = _advice(
    "cross_entropy",
    "loss = logsumexp(z) - z[y]：logsumexp 里先减最大值，返回一个数。", "ch1-logsumexp")

ADVICE_GRAD = _advice(
    "gradient",
    "g = softmax(z)（先减最大值），再 g[y] -= 1，返回与 z 同形状的数组。", "ch2-derivation")

ADVICE_NUMERICAL_GRAD = _advice(
    "numerical_grad",
    "grad = np.zeros_like(x)；对每个 k in np.ndindex(x.shape)：step = np.zeros_like(x)，step[k] = delta，"
    "grad[k] = (f(x + step) - f(x - step)) / (2 * delta)；返回 grad。", "ch2-finite-diff")

ADVICE_MEAN_LOSS = _advice(
    "mean_loss",
    "valid = targets != -100；对有效的每一行算 logsumexp(z) - z[y]，加起来再除以 valid.sum()。", "ch2-denominator")

ADVICE_EMBEDDING = _advice(
    "embedding",
    "dE = np.zeros((vocab_size, d))；np.add.at(dE, ids, dH)：每个位置的梯度加到它读过的那一行，重复的编号累加。",
    "ch3-overwrite-bug")

ADVICE_BIGRAM = _advice(
    "bigram",
    "logits = W[xs]；每行减最大值后做 softmax；loss = 每行 logsumexp - 目标分数 的平均；"
    "dlogits = (probs - onehot) / N；np.add.at(dW, xs, dlogits)。返回 (loss, dW)。", "ch4-gradient")

ADVICE_COUNTS = _advice(
    "counts",
    "N = C.sum()，n = C.sum(axis=1)；每行减最大值：s = W - W.max(axis=1, keepdims=True)；"
    "logp = s - 每行 log Σ exp(s)；loss = -(C * logp).sum() / N；"
    "dW = (n[:, None] * exp(logp) - C) / N。返回 (loss, dW)。", "ch4-gradient")

ADVICE_TRAINING = _advice(
    "training",
    "losses = []；循环 steps 次：loss, dW = loss_and_grad(W)，losses.append(loss)，W = W - lr * dW；"
    "循环结束后再记一次 loss_and_grad(W)[0]；返回 (W, losses)，losses 共 steps + 1 个数。", "ch4-training")

ADVICE_INTERPOLATED = _advice(
    "interpolated",
    "N, V = C.sum(), len(C)；n = C.sum(axis=1)；p̂ = (C.sum(axis=0) + 1) / (N + V)；"
    "w = np.where(n[xs] > 0, gamma, 0.0)；p = w * C[xs, ys] / np.maximum(n[xs], 1) + (1 - w) * p̂[ys]；"
    "返回 -np.mean(np.log(p))。", "ch5-backoff")
