/**
 * /testify.js: with JavaScript, the form solves ALTCHA's proof of work (SHA-256 of salt+number equal to the
 * challenge, found by counting up, as altcha-lib's solveChallenge does) and sends itself with upload progress.
 * Without it the form is sent as it is, marked unverified. Kept as plain ES2017 so old phone browsers run it.
 */
export const TESTIFY_SCRIPT = `(function(){
var form=document.getElementById('testify');if(!form||!window.crypto||!crypto.subtle||!window.XMLHttpRequest)return;
var status=document.getElementById('progress-text');
function hex(b){return Array.prototype.map.call(new Uint8Array(b),function(x){return('0'+x.toString(16)).slice(-2)}).join('')}
async function solve(c){var enc=new TextEncoder();for(var n=0;n<=c.maxnumber;n++){if(hex(await crypto.subtle.digest('SHA-256',enc.encode(c.salt+n)))===c.challenge)return n}return null}
form.addEventListener('submit',async function(e){
e.preventDefault();var button=form.querySelector('button');button.disabled=true;status.textContent=form.getAttribute('data-working');
try{var c=await (await fetch('/api/v1.0.0/testimonies/challenge',{headers:{accept:'application/json'}})).json();
var n=await solve(c);if(n===null)throw new Error('no solution');
var data=new FormData(form);data.delete('nojs');
data.set('altcha',btoa(JSON.stringify({algorithm:c.algorithm,challenge:c.challenge,number:n,salt:c.salt,signature:c.signature})));
var files=data.getAll('files').filter(function(f){return f&&f.name});data.delete('files');files.forEach(function(f){data.append('files',f,f.name)});
var bar=document.createElement('progress');bar.max=100;bar.value=0;status.after(bar);
var xhr=new XMLHttpRequest();xhr.open('POST',form.action);xhr.setRequestHeader('accept','text/html');
xhr.upload.onprogress=function(p){if(p.lengthComputable){bar.value=Math.round(p.loaded/p.total*100);status.textContent=form.getAttribute('data-sending')+' '+bar.value+'%'}};
xhr.onload=function(){var doc=new DOMParser().parseFromString(xhr.responseText,'text/html');document.title=doc.title;document.body.replaceWith(document.adoptNode(doc.body));window.scrollTo(0,0)};
xhr.onerror=function(){button.disabled=false;status.textContent='';bar.remove();form.submit()};
xhr.send(data)}catch(err){button.disabled=false;status.textContent='';form.submit()}
})})();`;
