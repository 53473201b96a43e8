// `npm install`'s last step: the web build and the embedded database's template, made at the same time (the build
// runs on every core in bursts, the template's migrations on one). Neither failing fails the install: `npm start`
// builds the web app again when it is missing, and a new data folder is made from nothing without the template.
import { spawn } from 'node:child_process';

const steps = [
  { script: 'build', fallback: 'web build failed: npm start will try again' },
  { script: 'db:template', fallback: 'database template not made: a new data folder is made from nothing' },
];

await Promise.all(
  steps.map(
    ({ script, fallback }) =>
      new Promise((resolve) => {
        const child = spawn('npm', ['run', '--silent', script], { stdio: 'inherit' });
        child.on('error', () => resolve(console.log(fallback)));
        child.on('close', (code) => resolve(code === 0 ? undefined : console.log(fallback)));
      }),
  ),
);
