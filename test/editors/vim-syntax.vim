" Loads editors/vim in a plain Vim (vim -Nu NONE -es) and prints, for every non-blank
" character run of the current buffer, its syntax group: LINE:COL 'TEXT' GROUP.
" Run: vim -Nu NONE -i NONE -es --cmd 'set rtp^=EDITORS_VIM' -S vim-syntax.vim FILE OUT
filetype plugin on
syntax on
" The file was loaded before the filetype detection was on: read it again.
edit
let s:out = []
for s:lnum in range(1, line('$'))
  let s:line = getline(s:lnum)
  let s:col = 1
  while s:col <= len(s:line)
    if s:line[s:col - 1] =~ '\s'
      let s:col += 1
      continue
    endif
    let s:group = synIDattr(synID(s:lnum, s:col, 1), 'name')
    let s:start = s:col
    while s:col <= len(s:line) && s:line[s:col - 1] !~ '\s' && synIDattr(synID(s:lnum, s:col, 1), 'name') ==# s:group
      let s:col += 1
    endwhile
    call add(s:out, s:lnum . ':' . s:start . " '" . strpart(s:line, s:start - 1, s:col - s:start) . "' " . (s:group ==# '' ? '-' : s:group))
  endwhile
endfor
call add(s:out, 'filetype=' . &filetype . ' formatprg=' . &formatprg)
call writefile(s:out, argv(1))
qall!
