" Vim syntax file for qspec quantization specs (grammar/QSpec.g4, docs/language.md).
" The same groups as the TextMate grammar in editors/vscode: keywords, tiers, recipe words,
" strings with their escapes and glob syntax, numbers, operators, comments.
if exists('b:current_syntax')
  finish
endif

" Identifiers contain '.' and '-' (dual-int16, nash-p).
syntax iskeyword @,48-57,_,.,-

syntax keyword qspecStatement qspec include model defaults tiers protect group override target tune
syntax keyword qspecKeyword same_score from with type name priority tier weight act metric levels
syntax keyword qspecKeyword exclude raise to first last top
syntax keyword qspecTier int4 int8 int16 dual-int16 fp16 float
syntax keyword qspecRecipe bf16 fp8_e4m3 mxfp8 mxfp4 placeholder per_tensor per_channel per_group
syntax keyword qspecRecipe per_block per_token pd_mix per_head dual_scale symmetric sym asymmetric
syntax keyword qspecRecipe asym minmax histogram ssz gptq
syntax keyword qspecBoolean true false

syntax match qspecTypeName /\%(\<type\s\+\)\@<=[A-Za-z_][A-Za-z0-9_.-]*/
syntax match qspecTargetName /\%(\<target\s\+\)\@<=[A-Za-z_][A-Za-z0-9_.-]*/
syntax match qspecNumber /\%(^\|[^A-Za-z0-9_.-]\)\@<=-\=\%(\d\+\.\d*\|\.\d\+\|\d\+\)\%([eE][+-]\=\d\+\)\=\>/
syntax match qspecOperator /[<>]=\=\|=\|+/

syntax match qspecEscape contained /\\\%(["\\ntr0]\|x\x\{2}\|u\x\{4}\|U\x\{8}\)/
syntax match qspecBadEscape contained /\\[^"\\ntr0xuU]/
" Defined after qspecGlob: of two matches at one place, Vim takes the later one.
syntax match qspecGlob contained /{[^}"]*}\|\[!\=[^\]"]*\]\|[*?]/
syntax match qspecBinding contained /{[A-Za-z_][A-Za-z0-9_]*}/
syntax region qspecString start=/"/ skip=/\\./ end=/"\|$/ oneline contains=qspecEscape,qspecBadEscape,qspecBinding,qspecGlob

syntax keyword qspecTodo contained TODO FIXME XXX NOTE
syntax match qspecLineComment "//.*$" contains=qspecTodo,@Spell
syntax region qspecBlockComment start="/\*" end="\*/" contains=qspecTodo,@Spell

highlight default link qspecStatement Statement
highlight default link qspecKeyword Keyword
highlight default link qspecTier Constant
highlight default link qspecRecipe Type
highlight default link qspecBoolean Boolean
highlight default link qspecTypeName Identifier
highlight default link qspecTargetName Identifier
highlight default link qspecNumber Number
highlight default link qspecOperator Operator
highlight default link qspecString String
highlight default link qspecEscape SpecialChar
highlight default link qspecBadEscape Error
highlight default link qspecBinding Identifier
highlight default link qspecGlob Special
highlight default link qspecLineComment Comment
highlight default link qspecBlockComment Comment
highlight default link qspecTodo Todo

let b:current_syntax = 'qspec'
