/** One object whose values a parse-and-serialize would change, and a page holding it: for the exact-value tests. */
export const exactObject = '{"id":"acct-1","n":9007199254740993,"price":1.10,"a.b":"flat","a":{"b":"nested"}}';
export const exactPage = `{"pagination":{"ending_before":null,"starting_after":null,"limit":25,"order":"desc","previous_uri":null,"next_uri":null},"data":[${exactObject}]}`;
