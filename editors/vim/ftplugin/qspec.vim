" qspec: comments, indentation and `gq` through `qcc fmt` (docs/editors.md).
if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1

setlocal commentstring=//\ %s
setlocal comments=s1:/*,mb:*,ex:*/,://
setlocal shiftwidth=2 softtabstop=2 expandtab
setlocal iskeyword=@,48-57,_,.,-
" `gq` on a range, or `:%!qcc fmt -` for the whole file.
setlocal formatprg=qcc\ fmt\ -

let b:undo_ftplugin = 'setlocal commentstring< comments< shiftwidth< softtabstop< expandtab< iskeyword< formatprg<'
