// The connectors page: takes this launch's key from the URL and renders the page with it, or says
// where to get one.
import { render } from 'preact';
import { Api, takeToken } from './api.js';
import { Connectors } from './connectors.js';
import './style.css';

const root = document.getElementById('app') as HTMLElement;
const token = takeToken();
render(
  token === undefined ? (
    <main class="page">
      <h1>Connectors</h1>
      <p class="problem" role="alert">
        This page needs the key of this launch of epoch web: open it from the URL that{' '}
        <code>epoch web</code> printed (the key is in it).
      </p>
    </main>
  ) : (
    <Connectors api={new Api(token)} />
  ),
  root,
);
