"""Clean labcode/data/idioms.txt of the scraping errors that can be found systematically (labcode/data/README.md).

Three rules, applied in this order; running the script on its own output changes nothing:
1. Traditional forms in a simplified list: a character outside GB 2312 whose OpenCC ``t2s`` form is one GB 2312
   character becomes that character (the table below was generated with OpenCC 1.4.2 from the characters of the list;
   the five characters whose lines were misreads, not traditional forms, are left to rule 2).
2. Misreads: characters that look like the right one but mean nothing in any idiom of the list that holds them, and
   single lines whose one wrong character was found while reviewing the rarest characters (no other idiom uses it).
3. Duplicates that rules 1 and 2 create are dropped; the list is sorted by code point again.

    .venv/bin/python scripts/clean_idioms.py            # rewrites the file, prints the counts
"""
import sys
from pathlib import Path

IDIOMS = Path(__file__).resolve().parent.parent / "labcode" / "data" / "idioms.txt"

TRADITIONAL = dict(zip("佔併俠倖傯卻噁幾彫捲採搧旂梘棊榪汙洩猙琱皁祕禿穢綈習脣脩舖蝟襪覈謭貍蹠躥迴適闇靦餬餵餿鴆齧",
                       "占并侠幸偬却恶几雕卷采扇旗枧棋杩污泄狰雕皂秘秃秽绨习唇修铺猬袜核谫狸跖蹿回适暗腼糊喂馊鸩啮",
                       strict=True))
MISREAD_CHARS = {"壸": "壶",   # kǔn, a palace path, for hú (a pot): 一壶千金, 冰壶秋月, 中流一壶
                 "蠙": "隙"}   # pín, an oyster, for xì (a gap): 有隙可乘, 驷之过隙
MISREAD_LINES = {"冯髈弹铗": "冯谖弹铗", "鲂鱼趙尾": "鲂鱼赪尾", "渊涓蠖瀋": "渊涓蠖濩", "閒今铸古": "熔今铸古",
                 "閒古铸今": "熔古铸今", "病入骨雜": "病入骨髓", "鸮心鹺舌": "鸮心鹂舌"}


def clean(idioms):
    """The cleaned list and the number of lines each rule changed."""
    table = str.maketrans({**TRADITIONAL, **MISREAD_CHARS})
    fixed = [MISREAD_LINES.get(w, w).translate(table) for w in idioms]
    changed = sum(a != b for a, b in zip(idioms, fixed, strict=True))
    out = sorted(set(fixed))
    return out, changed, len(fixed) - len(out)


def main():
    idioms = IDIOMS.read_text(encoding="utf-8").split()
    out, changed, dropped = clean(idioms)
    IDIOMS.write_text("\n".join(out) + "\n", encoding="utf-8")
    print(f"{len(idioms)} lines: {changed} corrected, {dropped} duplicates dropped, {len(out)} left")


if __name__ == "__main__":
    sys.exit(main())
